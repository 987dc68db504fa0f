package ahpstate

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

const chatURI = "ahp-chat:/c1"

func idleChat() ahpwire.ChatState {
	return ahpwire.ChatState{Resource: chatURI, Title: "t", Status: ahpwire.StatusIdle, ModifiedAt: "2026-01-01T00:00:00.000Z"}
}

// apply runs actions through the default reducer.
func apply(s ahpwire.ChatState, actions ...ahpwire.Action) ahpwire.ChatState {
	for _, a := range actions {
		s = ReduceChat(s, a)
	}
	return s
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func started(id string) *ahpwire.ChatTurnStarted {
	return &ahpwire.ChatTurnStarted{TurnID: id, StartedAt: "2026-01-01T00:00:10.000Z", Message: ahpwire.UserMessage("hi")}
}

// withPendingTool returns a chat whose active turn t1 has tool call tc in
// pending-confirmation with two options.
func withPendingTool(contributor *ahpwire.ToolCallContributor, editable bool) ahpwire.ChatState {
	return apply(idleChat(), started("t1"),
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "tc", ToolName: "bash", DisplayName: "Bash", Contributor: contributor},
		&ahpwire.ChatToolCallReady{TurnID: "t1", ToolCallID: "tc", InvocationMessage: ahpwire.Plain("run"), ToolInput: ahpwire.InlineInput("ls"),
			Editable: ahpwire.Ptr(editable),
			Options:  []ahpwire.ConfirmationOption{{ID: "yes", Label: "Allow", Kind: "approve"}, {ID: "no", Label: "Deny", Kind: "deny"}}},
	)
}

func toolOf(t *testing.T, s ahpwire.ChatState, id string) ahpwire.ToolCallState {
	t.Helper()
	if s.ActiveTurn == nil {
		t.Fatal("no active turn")
	}
	for _, p := range s.ActiveTurn.ResponseParts.All() {
		if p.Kind == ahpwire.PartToolCall && p.ToolCall.ToolCallID == id {
			return *p.ToolCall
		}
	}
	t.Fatalf("tool call %s not found", id)
	return ahpwire.ToolCallState{}
}
