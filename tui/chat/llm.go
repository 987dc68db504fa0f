package chat

import (
	"github.com/ahptui/ahptui/ahpwire"
)

// The status line names the model as soon as it is known, not only once
// a turn reports usage. In order of authority:
//  1. the model of the current or last turn's usage (what actually ran);
//  2. the model selected on the current or last turn's message, or on the
//     chat's draft (from the chat snapshot and chat/turnStarted);
//  3. the only model the session's agent offers (SessionState.provider
//     looked up in RootState.agents).

// selectedModel is the model id a message selects ("" if none).
func selectedModel(msg *ahpwire.ChatMessage) string {
	if msg == nil || msg.Model == nil {
		return ""
	}
	return msg.Model.ID
}

// snapshotModel is the model selected by the chat's newest turn, or its
// draft ("" if none says).
func snapshotModel(cs ahpwire.ChatState) string {
	if cs.ActiveTurn != nil {
		if id := selectedModel(&cs.ActiveTurn.Message); id != "" {
			return id
		}
	}
	for i := len(cs.Turns) - 1; i >= 0; i-- {
		if id := selectedModel(&cs.Turns[i].Message); id != "" {
			return id
		}
	}
	return selectedModel(cs.Draft)
}

// noteTurnModel records the model a chat action selects, if any.
func (m *Model) noteTurnModel(env ahpwire.ActionEnvelope) {
	if env.RejectionReason != "" {
		return
	}
	if a, ok := env.Action.(*ahpwire.ChatTurnStarted); ok {
		if id := selectedModel(&a.Message); id != "" {
			m.turnModel = id
		}
	}
}

// AgentModel is the model of the provider's agent when it offers exactly
// one ("" when the agent is unknown or offers a choice: the host picks).
func AgentModel(agents []ahpwire.AgentInfo, provider string) string {
	for _, a := range agents {
		if a.Provider == provider && len(a.Models) == 1 {
			return a.Models[0].ID
		}
	}
	return ""
}

// ModelVendor is the vendor of model id as the session's agent reports it
// (SessionModelInfo.vendor, AHP 1.1; "" when unknown).
func ModelVendor(agents []ahpwire.AgentInfo, provider, id string) string {
	for _, a := range agents {
		if provider != "" && a.Provider != provider {
			continue
		}
		for _, mi := range a.Models {
			if mi.ID == id && mi.Vendor != "" {
				return mi.Vendor
			}
		}
	}
	return ""
}
