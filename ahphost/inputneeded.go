package ahphost

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// pendingInputs lists what a chat's active turn waits for, as session
// inputNeeded entries: tool calls pending (result) confirmation and input
// requests without a response. Entry ids are "<chat>#<toolCallId|requestId>".
// It runs after every chat action: a turn where nothing waits for the
// client (the parts count them) is not read part by part.
func pendingInputs(ce *chatEntry) []ahpwire.SessionInputRequest {
	at := ce.state.ActiveTurn
	if at == nil || at.ResponseParts.WaitingForClient() == 0 {
		return nil
	}
	var out []ahpwire.SessionInputRequest
	for _, p := range at.ResponseParts.All() {
		switch {
		case p.ToolCall != nil && (p.ToolCall.Status == ahpwire.ToolPendingConfirmation ||
			p.ToolCall.Status == ahpwire.ToolPendingResultConfirmation):
			tc := *p.ToolCall
			out = append(out, ahpwire.SessionInputRequest{
				ID: ce.uri + "#" + tc.ToolCallID, Chat: ce.uri, Kind: ahpwire.InputNeededToolConfirmation,
				TurnID: at.ID, ToolCall: &tc,
			})
		case p.Kind == ahpwire.PartInputRequest && p.Request != nil && p.Response == "":
			req := *p.Request
			out = append(out, ahpwire.SessionInputRequest{
				ID: ce.uri + "#" + req.ID, Chat: ce.uri, Kind: ahpwire.InputNeededChatInput, Request: &req,
			})
		}
	}
	return out
}

// syncInputNeeded reconciles the session's inputNeeded roll-up with the
// chat's pending inputs (session/inputNeededSet and /inputNeededRemoved).
func (s *store) syncInputNeeded(se *sessionEntry, ce *chatEntry) {
	want := pendingInputs(ce)
	wantByID := make(map[string]ahpwire.SessionInputRequest, len(want))
	for _, q := range want {
		wantByID[q.ID] = q
	}
	var stale []string
	have := make(map[string]string)
	for _, q := range se.state.InputNeeded {
		if q.Chat != ce.uri {
			continue
		}
		if _, ok := wantByID[q.ID]; !ok {
			stale = append(stale, q.ID)
			continue
		}
		b, _ := json.Marshal(q)
		have[q.ID] = string(b)
	}
	for _, id := range stale {
		s.applySession(se, &ahpwire.SessionInputNeededRemoved{ID: id}, nil)
	}
	for _, q := range want {
		b, _ := json.Marshal(q)
		if have[q.ID] == string(b) {
			continue
		}
		s.applySession(se, &ahpwire.SessionInputNeededSet{Request: q}, nil)
	}
}
