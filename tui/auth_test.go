package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// runningMCPTool is a running tool call contributed by an MCP server (the
// only kind that can ask for authentication).
func runningMCPTool() ahpwire.ResponsePart {
	return ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolRunning, ToolCallID: "mcp1", ToolName: "github_search", DisplayName: "Search GitHub",
		Contributor: &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "github"}, Confirmed: "not-needed",
		InvocationMessage: ahpwire.PlainPtr("Search issues for `reconnect`"), ToolInput: ahpwire.InlineInput(`{"q":"reconnect"}`),
	}}
}

func authRequired() connEventMsg {
	return envelope(5, &ahpwire.ChatToolCallAuthRequired{TurnID: "t2", ToolCallID: "mcp1", Auth: ahpwire.McpAuthRequirement{
		Reason: "token missing", Description: "GitHub needs you to sign in to search private repositories.",
		Resource: ahpwire.ProtectedResourceMetadata{Resource: "https://api.github.com"}, RequiredScopes: []string{"repo", "read:org"},
	}})
}

func TestAuthRequiredIsCountedAndExplained(t *testing.T) {
	m, fb := runningChat(t, runningMCPTool())
	if len(m.overlays) != 0 {
		t.Fatal("a running tool opened a prompt")
	}
	m = send(t, m, authRequired())
	n, ok := m.overlays[len(m.overlays)-1].(*dialog.AuthNotice)
	if !ok || len(m.overlays) != 1 {
		t.Fatalf("auth-required did not open the sign-in notice (%d overlays)", len(m.overlays))
	}
	_ = n
	v := viewText(m)
	for _, want := range []string{"Sign-in needed: Search GitHub", "https://api.github.com", "repo, read:org",
		"Sign in with a token", "another client", "s sign in", "f give up", "1 waiting for you (ctrl+p)"} {
		if !strings.Contains(v, want) {
			t.Errorf("sign-in notice lacks %q:\n%s", want, v)
		}
	}
	// esc waits: the call stays counted and ctrl+p brings the notice back.
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 || !strings.Contains(viewText(m), "1 waiting for you") {
		t.Fatalf("esc must close the notice and keep the count:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("ctrl+p"))
	if _, ok := m.overlays[0].(*dialog.AuthNotice); !ok {
		t.Fatal("ctrl+p did not reopen the sign-in notice")
	}
	// f gives up: chat/toolCallComplete with a failed result.
	m = send(t, m, keyPress("f"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatToolCallComplete)
	if !ok || a.TurnID != "t2" || a.ToolCallID != "mcp1" || a.Result.Success || a.Result.Error == nil || a.Result.Error.Message == "" {
		t.Fatalf("want a failed toolCallComplete for mcp1, got %#v", fb.lastDispatch(t).action)
	}
	if len(m.overlays) != 0 {
		t.Fatal("the notice stayed open after giving up")
	}
}

func TestAuthResolvedElsewhereClosesNotice(t *testing.T) {
	m, fb := runningChat(t, runningMCPTool())
	m = send(t, m, authRequired())
	if len(m.overlays) != 1 {
		t.Fatal("no notice")
	}
	m = send(t, m, envelope(6, &ahpwire.ChatToolCallAuthResolved{TurnID: "t2", ToolCallID: "mcp1"}))
	if len(m.overlays) != 0 || strings.Contains(viewText(m), "waiting for you") {
		t.Fatalf("resolved auth must close the notice and clear the count:\n%s", viewText(m))
	}
	if len(fb.dispatched) != 0 {
		t.Fatal("nothing should have been dispatched")
	}
}

func TestApprovedToolThatNeedsAuthIsPromptedAgain(t *testing.T) {
	// The same tool call first waits for approval, then (running) for
	// authentication: both must be prompted automatically.
	tool := runningMCPTool()
	tool.ToolCall.Status = ahpwire.ToolPendingConfirmation
	tool.ToolCall.Confirmed = ""
	m, _ := runningChat(t, tool)
	if _, ok := m.overlays[0].(*dialog.Approval); !ok {
		t.Fatal("no approval prompt")
	}
	m = send(t, m, keyPress("a"))
	m = send(t, m, envelope(4, &ahpwire.ChatToolCallConfirmed{TurnID: "t2", ToolCallID: "mcp1", Approved: true, Confirmed: ahpwire.ConfirmedUserAction}))
	m = send(t, m, authRequired())
	if len(m.overlays) != 1 {
		t.Fatalf("auth after approval not prompted (%d overlays)", len(m.overlays))
	}
	if _, ok := m.overlays[0].(*dialog.AuthNotice); !ok {
		t.Fatalf("want the sign-in notice, got %T", m.overlays[0])
	}
}
