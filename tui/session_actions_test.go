package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

func TestPickerRenameArchiveAndReadMarkers(t *testing.T) {
	m, be := newSteerModel(t, 120, 20)
	ss := testSessions()
	ss[0].Status |= ahpwire.StatusIsRead
	ss[2].Status |= ahpwire.StatusIsRead | ahpwire.StatusIsArchived
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: ss}}})
	v := viewText(m)
	if strings.Contains(v, "Benchmark the transcript") || !strings.Contains(v, "• ● Write the README") || strings.Contains(v, "• ○ Fix the flaky") {
		t.Fatalf("markers / archived hidden:\n%s", v)
	}
	m = send(t, m, tea.KeyPressMsg{Code: 'h', Mod: tea.ModAlt})
	if v := viewText(m); !strings.Contains(v, "Benchmark the transcript [archived]") {
		t.Fatalf("show archived:\n%s", v)
	}
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyF2})
	if v := viewText(m); !strings.Contains(v, "Rename session") {
		t.Fatalf("no rename prompt:\n%s", v)
	}
	m = typeText(t, m, " now")
	m = send(t, m, keyPress("enter"))
	d := be.lastDispatch(t)
	if tc, ok := d.action.(*ahpwire.SessionTitleChanged); !ok || d.channel != "ahp-session:/a" || tc.Title != "Fix the flaky reconnect test now" {
		t.Fatalf("rename %+v on %s", d.action, d.channel)
	}
	m = send(t, m, tea.KeyPressMsg{Code: 'a', Mod: tea.ModAlt})
	if a, ok := be.lastDispatch(t).action.(*ahpwire.SessionIsArchivedChanged); !ok || !a.IsArchived {
		t.Fatalf("archive %+v", be.lastDispatch(t).action)
	}
	m = send(t, m, tea.KeyPressMsg{Code: 'u', Mod: tea.ModAlt})
	if a, ok := be.lastDispatch(t).action.(*ahpwire.SessionIsReadChanged); !ok || a.IsRead {
		t.Fatalf("mark unread %+v", be.lastDispatch(t).action)
	}
	_ = m
}

func TestNewSessionFormCreatesWithConfig(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: "demo", DisplayName: "Demo"}}}))
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{}})
	m = send(t, m, keyPress("ctrl+n"))
	if m.topConfigForm() == nil || !strings.Contains(viewText(m), "New session") || !strings.Contains(viewText(m), "/w") {
		t.Fatalf("no form:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "Note is required") {
		t.Fatalf("no validation:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("down")) // mode: plan
	m = send(t, m, keyPress("tab"))
	m = typeText(t, m, "x")
	m = send(t, m, keyPress("enter"))
	if m.topConfigForm() != nil || len(be.created) != 1 {
		t.Fatalf("not created (%d):\n%s", len(be.created), viewText(m))
	}
	p := be.created[0]
	if string(p.Config["mode"]) != `"plan"` || string(p.Config["note"]) != `"x"` || len(p.WorkingDirectories) != 1 || p.WorkingDirectories[0] != "file:///w" {
		t.Fatalf("created %+v", p)
	}
}

func TestSignInPromptFromNoticeAndNotification(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, activeTurn(runningMCPTool())))
	m = send(t, m, authRequired())
	m = send(t, m, keyPress("s"))
	if _, ok := m.overlays[len(m.overlays)-1].(*dialog.SignIn); !ok {
		t.Fatalf("no sign-in prompt:\n%s", viewText(m))
	}
	m = typeText(t, m, "tok-secret")
	if strings.Contains(viewText(m), "tok-secret") {
		t.Fatal("the token is shown")
	}
	m = send(t, m, keyPress("enter"))
	if len(be.tokens) != 1 || be.tokens[0] != "tok-secret" || !strings.Contains(statusLine(m), "signed in") {
		t.Fatalf("tokens %v status %q", be.tokens, statusLine(m))
	}
	// auth/required with no prompt open opens the sign-in prompt.
	m.overlays = nil
	raw, _ := json.Marshal(ahpwire.AuthRequiredParams{Channel: rootChannel, Resource: ahpwire.ProtectedResourceMetadata{
		Resource: "https://demo-api.ahptui.invalid", ResourceName: "Demo API", AuthorizationServers: []string{"https://login.example"}}})
	m = send(t, m, connEventMsg{ev: ahpclient.NotificationEvent{Method: ahpwire.MethodAuthRequired, Channel: rootChannel, Params: raw}})
	if v := viewText(m); !strings.Contains(v, "Sign in to Demo API") || !strings.Contains(v, "https://login.example") {
		t.Fatalf("notification prompt:\n%s", v)
	}
}

// gatedBackend refuses createSession with AuthRequired until a token came.
type gatedBackend struct{ *steerBackend }

func (g gatedBackend) CreateSession(ctx context.Context, p ahpwire.CreateSessionParams) error {
	g.smu.Lock()
	signed := len(g.tokens) > 0
	g.smu.Unlock()
	if !signed {
		data, _ := json.Marshal(ahpwire.AuthRequiredData{Resources: []ahpwire.ProtectedResourceMetadata{{Resource: "https://api.example", ResourceName: "Example API"}}})
		return fmt.Errorf("create session: %w", &ahpwire.RPCError{Code: ahpwire.CodeAuthRequired, Message: "authentication required", Data: data})
	}
	return g.steerBackend.CreateSession(ctx, p)
}

func TestCreateSessionAuthRequiredSignsInAndRetries(t *testing.T) {
	_, sb := newSteerModel(t, 100, 30)
	be := gatedBackend{sb}
	m := newModel(Options{Backend: be, Host: "h", Dark: true, Now: func() time.Time { return fixedNow },
		NewID: func() string { return "id" }, FrameInterval: time.Nanosecond, NoticeTTL: time.Hour})
	m = send(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m = send(t, m, snapshotEvent(t, rootChannel, ahpwire.RootState{Agents: []ahpwire.AgentInfo{{Provider: "demo", DisplayName: "Demo"}}}))
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{}})
	m = send(t, m, keyPress("ctrl+n"))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("tab"))
	m = typeText(t, m, "n")
	m = send(t, m, keyPress("enter"))
	if v := viewText(m); !strings.Contains(v, "Sign in to Example API") || len(sb.created) != 0 {
		t.Fatalf("no sign-in prompt after AuthRequired (%d created):\n%s", len(sb.created), v)
	}
	m = typeText(t, m, "tok")
	_ = send(t, m, keyPress("enter"))
	if len(sb.tokens) != 1 || len(sb.created) != 1 || string(sb.created[0].Config["note"]) != `"n"` {
		t.Fatalf("tokens %v created %+v", sb.tokens, sb.created)
	}
}

func TestSearchFromTranscriptFocusKeepsTypedKeys(t *testing.T) {
	m, _ := newSteerModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "the answer mentions kiwi")}, nil))
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("/"))
	m = typeText(t, m, "kiwi")
	if m.chat.Composer.Value() != "" || m.chat.Extras.Search.Query != "kiwi" || !strings.Contains(viewText(m), "search › kiwi") {
		t.Fatalf("typed keys went astray: composer %q query %q", m.chat.Composer.Value(), m.chat.Extras.Search.Query)
	}
}

// TestSignInPromptOffersEveryMethod: an agent with several sign-in methods
// sends auth/required for each; the open prompt lists them all, tab moves
// to the next, and enter signs in to the one shown.
func TestSignInPromptOffersEveryMethod(t *testing.T) {
	m, be := newSteerModel(t, 100, 30)
	m = openChat(t, m, chatState(nil, nil))
	for _, r := range []ahpwire.ProtectedResourceMetadata{
		{Resource: "acp-auth:/claude/login", ResourceName: "Log in (Claude)"},
		{Resource: "acp-auth:/claude/api-key", ResourceName: "API key (Claude)"},
		{Resource: "acp-auth:/claude/login", ResourceName: "Log in (Claude)"}, // again: listed once
	} {
		raw, _ := json.Marshal(ahpwire.AuthRequiredParams{Channel: rootChannel, Resource: r})
		m = send(t, m, connEventMsg{ev: ahpclient.NotificationEvent{Method: ahpwire.MethodAuthRequired, Channel: rootChannel, Params: raw}})
	}
	if len(m.overlays) != 1 {
		t.Fatalf("%d overlays, want the one prompt", len(m.overlays))
	}
	if v := viewText(m); !strings.Contains(v, "Sign in to Log in (Claude)") || !strings.Contains(v, "1 of 2 ways to sign in") {
		t.Fatalf("first method:\n%s", v)
	}
	m = send(t, m, keyPress("tab"))
	if v := viewText(m); !strings.Contains(v, "Sign in to API key (Claude)") || !strings.Contains(v, "2 of 2") {
		t.Fatalf("tab did not move to the second method:\n%s", v)
	}
	m = typeText(t, m, "sk-test")
	m = send(t, m, keyPress("enter"))
	if len(be.resources) != 1 || be.resources[0] != "acp-auth:/claude/api-key" {
		t.Fatalf("authenticate sent for %v", be.resources)
	}
}
