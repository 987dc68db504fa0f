package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// goneChat is a chat the host no longer has: both subscriptions failed.
func goneChat(t *testing.T) (Model, *fakeBackend) {
	t.Helper()
	m, fb := runningChat(t)
	return loseChat(t, m, fb), fb
}

// loseChat has the host forget m's chat and session (as after a restart):
// both subscriptions are lost and cannot be renewed.
func loseChat(t *testing.T, m Model, fb *fakeBackend) Model {
	t.Helper()
	fb.mu.Lock()
	fb.subErr = map[string]error{
		testChat:    fmt.Errorf("ahpclient: subscribe: %w", &ahpwire.RPCError{Code: ahpwire.CodeNotFound, Message: "chat not found"}),
		testSession: fmt.Errorf("ahpclient: subscribe: %w", &ahpwire.RPCError{Code: ahpwire.CodeSessionNotFound, Message: "session not found"}),
	}
	fb.mu.Unlock()
	m = send(t, m, connEventMsg{ev: ahpclient.ChannelLostEvent{Channel: testSession}})
	return send(t, m, connEventMsg{ev: ahpclient.ChannelLostEvent{Channel: testChat}})
}

// openCreated drives the model through the session ctrl+n created.
func openCreated(t *testing.T, m Model, fb *fakeBackend) Model {
	t.Helper()
	fb.mu.Lock()
	if len(fb.created) != 1 {
		fb.mu.Unlock()
		t.Fatalf("%d sessions created, want 1", len(fb.created))
	}
	c := fb.created[0]
	fb.mu.Unlock()
	if c.Provider != "demo" {
		t.Fatalf("new session with provider %q, want the same agent (demo)", c.Provider)
	}
	ss := ahpwire.SessionState{Provider: "demo", Lifecycle: ahpwire.LifecycleReady, DefaultChat: "ahp-chat:/c2",
		Chats: []ahpwire.ChatSummary{{Resource: "ahp-chat:/c2"}}}
	m = send(t, m, snapshotEvent(t, c.Channel, ss))
	if m.chat == nil || m.chat.URI != "ahp-chat:/c2" {
		t.Fatal("the new session's chat did not open")
	}
	return m
}

// TestSendIntoAGoneChatIsKeptAndResentInANewSession: a message typed into
// a chat the host no longer has is not sent into the void; it stays on
// screen with the way out, and ctrl+n carries it into a new session's
// composer.
func TestSendIntoAGoneChatIsKeptAndResentInANewSession(t *testing.T) {
	m, fb := goneChat(t)
	n := len(fb.dispatched)
	m = typeText(t, m, "please retry the deploy")
	m = send(t, m, keyPress("enter"))
	if len(fb.dispatched) != n {
		t.Fatalf("the message was dispatched into a gone chat: %#v", fb.lastDispatch(t).action)
	}
	v := viewText(m)
	if !strings.Contains(v, "✗ not sent") || !strings.Contains(v, "please retry the deploy") || !strings.Contains(v, "ctrl+n resends") {
		t.Fatalf("the unsent message is not shown with the way out:\n%s", v)
	}
	m = typeText(t, m, "and a draft")
	m = send(t, m, keyPress("ctrl+n"))
	m = openCreated(t, m, fb)
	if got := m.chat.Composer.Value(); got != "please retry the deploy\n\nand a draft" {
		t.Fatalf("new chat's draft = %q", got)
	}
}

// TestSendingWhenTheChatIsLostEndsInAVisibleError: a message still
// "sending" when the chat turns out to be gone becomes an unsent message
// (it would otherwise say "sending" forever).
func TestSendingWhenTheChatIsLostEndsInAVisibleError(t *testing.T) {
	m, fb := runningChat(t)
	act := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "q1", Message: ahpwire.UserMessage("also update the docs")}
	m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: ahpclient.OutboxEntry{ClientSeq: 7, Channel: testChat, Action: act, Status: ahpclient.OutboxSent}}})
	if !strings.Contains(viewText(m), "… sending: also update the docs") {
		t.Fatalf("fixture: the send is not shown as sending:\n%s", viewText(m))
	}
	fb.mu.Lock()
	fb.subErr = map[string]error{testChat: &ahpwire.RPCError{Code: ahpwire.CodeNotFound, Message: "chat not found"}}
	fb.mu.Unlock()
	m = send(t, m, connEventMsg{ev: ahpclient.ChannelLostEvent{Channel: testChat}})
	v := viewText(m)
	if strings.Contains(v, "sending:") || !strings.Contains(v, "✗ not sent") || !strings.Contains(v, "also update the docs") {
		t.Fatalf("the send did not end in a visible error:\n%s", v)
	}
	m = send(t, m, keyPress("ctrl+n"))
	m = openCreated(t, m, fb)
	if got := m.chat.Composer.Value(); got != "also update the docs" {
		t.Fatalf("new chat's draft = %q", got)
	}
}

// TestRejectedAndFailedSendsStayVisible: a send the host rejects, or that
// fails, does not vanish with a transient notice.
func TestRejectedAndFailedSendsStayVisible(t *testing.T) {
	for _, st := range []ahpclient.OutboxStatus{ahpclient.OutboxRejected, ahpclient.OutboxFailed} {
		m, _ := idleChat(t)
		act := &ahpwire.ChatTurnStarted{TurnID: "t9", Message: ahpwire.UserMessage("run the migration")}
		m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: ahpclient.OutboxEntry{ClientSeq: 3, Channel: testChat, Action: act, Status: ahpclient.OutboxSent}}})
		m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: ahpclient.OutboxEntry{ClientSeq: 3, Channel: testChat, Action: act, Status: st,
			Err: &ahpclient.RejectedError{ClientSeq: 3, Channel: testChat, Reason: "turn already running"}}}})
		m.notice = "" // the transient notice is not what keeps it visible
		if v := viewText(m); !strings.Contains(v, "✗ not sent") || !strings.Contains(v, "run the migration") {
			t.Fatalf("status %v: the refused send vanished:\n%s", st, v)
		}
	}
	// A dispatch that fails at once is kept too.
	m, _ := idleChat(t)
	act := &ahpwire.ChatTurnStarted{TurnID: "t9", Message: ahpwire.UserMessage("hello again")}
	m = send(t, m, app.DispatchedMsg{Channel: testChat, What: "send message", Action: act, Err: errors.New("ahpclient: dispatch: boom")})
	m.notice = ""
	if v := viewText(m); !strings.Contains(v, "✗ not sent") || !strings.Contains(v, "hello again") {
		t.Fatalf("the failed dispatch vanished:\n%s", v)
	}
}
