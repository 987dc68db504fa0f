package reducer

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// naiveWaiting counts Current's blocks waiting for the user by reading
// every block.
func naiveWaiting(s State) int {
	n := 0
	if s.Current != nil {
		for _, b := range s.Current.Blocks.All() {
			if b.Kind == KindToolCall && b.Tool.WaitsForClient() || b.InputOpen() {
				n++
			}
		}
	}
	return n
}

// TestBlocksCountWaiting: the count of blocks waiting for the user (which
// lets PendingApprovals and PendingInputs skip a long turn) follows
// approvals and questions asked and answered.
func TestBlocksCountWaiting(t *testing.T) {
	cs := ahpwire.ChatState{Resource: genChat, Title: "t", Status: ahpwire.StatusIdle}
	var s State
	steps := []struct {
		a                 ahpwire.Action
		approvals, inputs int
	}{
		{&ahpwire.ChatTurnStarted{TurnID: "live", Message: ahpwire.UserMessage("hi")}, 0, 0},
		{&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: "a", ToolName: "bash"}, 0, 0},
		{&ahpwire.ChatToolCallReady{TurnID: "live", ToolCallID: "a", InvocationMessage: ahpwire.Plain("run")}, 1, 0},
		{&ahpwire.ChatInputRequested{Request: ahpwire.ChatInputRequest{ID: "q", Message: "which?"}}, 1, 1},
		{&ahpwire.ChatToolCallConfirmed{TurnID: "live", ToolCallID: "a", Approved: true, Confirmed: "user-action"}, 0, 1},
		{&ahpwire.ChatToolCallComplete{TurnID: "live", ToolCallID: "a", Result: ahpwire.ToolCallResult{Success: true},
			RequiresResultConfirmation: true}, 1, 1},
		{&ahpwire.ChatInputCompleted{RequestID: "q", Response: "accept"}, 1, 0},
		{&ahpwire.ChatToolCallResultConfirmed{TurnID: "live", ToolCallID: "a", Approved: true}, 0, 0},
		{&ahpwire.ChatInputRequested{Request: ahpwire.ChatInputRequest{ID: "q2", Message: "and?"}}, 0, 1},
		{&ahpwire.ChatTurnComplete{TurnID: "live"}, 0, 0},
	}
	for i, st := range steps {
		cs, s, _ = ApplyAction(cs, s, st.a)
		if got, want := len(s.PendingApprovals()), st.approvals; got != want {
			t.Fatalf("step %d (%s): %d approvals, want %d", i, st.a.ActionType(), got, want)
		}
		if got, want := len(s.PendingInputs()), st.inputs; got != want {
			t.Fatalf("step %d (%s): %d inputs, want %d", i, st.a.ActionType(), got, want)
		}
		if s.Current != nil && s.Current.Blocks.waiting != naiveWaiting(s) {
			t.Fatalf("step %d: count %d, %d blocks wait", i, s.Current.Blocks.waiting, naiveWaiting(s))
		}
	}
}
