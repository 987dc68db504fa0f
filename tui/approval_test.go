package tui

// Tests of the approval and result-confirmation dialogs.

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

func TestApprovalApproveOptionAndDenyWithReason(t *testing.T) {
	m, fb := runningChat(t, pendingTool())
	m = send(t, m, keyPress("a"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed)
	if !ok || !a.Approved || a.ToolCallID != "tc1" || a.TurnID != "t2" || a.Confirmed != "user-action" || a.SelectedOptionID != "once" {
		t.Fatalf("approve: %#v", fb.lastDispatch(t).action)
	}
	if len(m.overlays) != 0 {
		t.Fatal("prompt still open after approving")
	}

	m, fb = runningChat(t, pendingTool())
	m = send(t, m, keyPress("2"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !a.Approved || a.SelectedOptionID != "session" {
		t.Fatalf("option 2: %#v", a)
	}

	m, fb = runningChat(t, pendingTool())
	m = send(t, m, keyPress("r"))
	if v := viewText(m); !strings.Contains(v, "why? (optional)") {
		t.Fatalf("reason placeholder not shown in full:\n%s", v)
	}
	m = typeText(t, m, "too risky")
	if len(fb.dispatched) != 0 {
		t.Fatal("typing a reason dispatched something (a/d must be disabled while typing)")
	}
	send(t, m, keyPress("enter"))
	d := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed)
	if d.Approved || d.Reason != "denied" || d.ReasonMessage == nil || d.ReasonMessage.Text != "too risky" || d.SelectedOptionID != "no" {
		t.Fatalf("deny with reason: %#v", d)
	}
}

func TestApprovalLaterCountsAndReopens(t *testing.T) {
	m, _ := runningChat(t, pendingTool())
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 {
		t.Fatal("esc did not close the prompt")
	}
	if !strings.Contains(viewText(m), "1 waiting for you") {
		t.Fatal("status line does not count the pending approval")
	}
	m = send(t, m, keyPress("ctrl+p"))
	if _, ok := m.overlays[len(m.overlays)-1].(*dialog.Approval); !ok {
		t.Fatal("ctrl+p did not reopen the approval")
	}
	// Resolved elsewhere (another client approved): the prompt closes.
	m = send(t, m, envelope(6, &ahpwire.ChatToolCallConfirmed{TurnID: "t2", ToolCallID: "tc1", Approved: true, Confirmed: "user-action"}))
	if len(m.overlays) != 0 || strings.Contains(viewText(m), "waiting for you (ctrl+p)") {
		t.Fatal("prompt or count left after the tool call was confirmed")
	}
}

func TestResultConfirmation(t *testing.T) {
	tool := resultReviewTool()
	tool.ToolCall.PastTenseMessage = ahpwire.PlainPtr("Ran `go test ./...`")
	m, fb := runningChat(t, tool)
	if !strings.Contains(viewText(m), "Review the result") {
		t.Fatalf("result review not prompted:\n%s", viewText(m))
	}
	send(t, m, keyPress("d"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallResultConfirmed)
	if !ok || a.Approved || a.ToolCallID != "tc1" {
		t.Fatalf("want result denial, got %#v", fb.lastDispatch(t).action)
	}
}

// An agent that reuses a tool call id in a later turn (fakeacp's t-1; the
// id is the agent's) gets its approval prompt opened there too: prompts
// open by themselves once per turn, not once per id.
func TestApprovalOpensAgainForReusedIDInNextTurn(t *testing.T) {
	m, fb := runningChat(t, pendingTool())
	if len(m.overlays) != 1 {
		t.Fatalf("first prompt: %d overlays", len(m.overlays))
	}
	m = send(t, m, keyPress("d"))
	fb.lastDispatch(t)
	m = send(t, m, envelope(10, &ahpwire.ChatToolCallConfirmed{TurnID: "t2", ToolCallID: "tc1", Reason: ahpwire.CancelDenied}))
	m = send(t, m, envelope(11, &ahpwire.ChatTurnComplete{TurnID: "t2"}))
	m = send(t, m, envelope(12, &ahpwire.ChatTurnStarted{TurnID: "t3", Message: ahpwire.UserMessage("again")}))
	m = send(t, m, envelope(13, &ahpwire.ChatToolCallStart{TurnID: "t3", ToolCallID: "tc1", ToolName: "run_command", DisplayName: "Run command"}))
	m = send(t, m, envelope(14, &ahpwire.ChatToolCallReady{TurnID: "t3", ToolCallID: "tc1", InvocationMessage: ahpwire.Plain("Run `ls`")}))
	if len(m.overlays) != 1 {
		t.Fatalf("the next turn's prompt for the same id did not open (%d overlays):\n%s", len(m.overlays), viewText(m))
	}
}
