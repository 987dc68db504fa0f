package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// agentOptionsTool is a pending Bash call carrying an ACP agent's own
// permission options, as Claude Code's adapter orders them: the lasting
// "Always Allow" first.
func agentOptionsTool() ahpwire.ResponsePart {
	p := pendingTool()
	p.ToolCall.Options = []ahpwire.ConfirmationOption{
		{ID: "allow_always", Label: "Always Allow", Kind: "approve"},
		{ID: "allow", Label: "Allow", Kind: "approve"},
		{ID: "reject", Label: "Reject", Kind: "deny"},
	}
	return p
}

// TestApprovalAgentOptions: the agent's options are shown with their
// labels and numbers; a is the agent's allow-once (not the first, lasting
// one), d its reject-once, and a number key picks any option.
func TestApprovalAgentOptions(t *testing.T) {
	m, fb := runningChat(t, agentOptionsTool())
	v := viewText(m)
	for _, want := range []string{"[1] Always Allow", "[2] Allow", "[3] Reject", "1-3"} {
		if !strings.Contains(v, want) {
			t.Fatalf("prompt lacks %q:\n%s", want, v)
		}
	}
	send(t, m, keyPress("a"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !a.Approved || a.SelectedOptionID != "allow" {
		t.Fatalf("a: %#v", a)
	}

	m, fb = runningChat(t, agentOptionsTool())
	send(t, m, keyPress("d"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); a.Approved || a.SelectedOptionID != "reject" || a.Reason != "denied" {
		t.Fatalf("d: %#v", a)
	}

	m, fb = runningChat(t, agentOptionsTool())
	send(t, m, keyPress("1"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); !a.Approved || a.SelectedOptionID != "allow_always" {
		t.Fatalf("1: %#v", a)
	}

	m, fb = runningChat(t, agentOptionsTool())
	send(t, m, keyPress("3"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallConfirmed); a.Approved || a.SelectedOptionID != "reject" {
		t.Fatalf("3: %#v", a)
	}
}
