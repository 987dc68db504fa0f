package tui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/uikit"
)

func idleChat(t *testing.T) (Model, *fakeBackend) {
	t.Helper()
	m, fb := newTestModel(t, 100, 30)
	return openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "Hi!")}, nil)), fb
}

func runningChat(t *testing.T, parts ...ahpwire.ResponsePart) (Model, *fakeBackend) {
	t.Helper()
	m, fb := newTestModel(t, 100, 30)
	if len(parts) == 0 {
		parts = []ahpwire.ResponsePart{ahpwire.MarkdownPart("t2.m1", "working on it")}
	}
	return openChat(t, m, chatState(nil, activeTurn(parts...))), fb
}

func TestUpdateDoesNoIO(t *testing.T) {
	m, fb := idleChat(t)
	m = typeText(t, m, "hi")
	nm, cmd := m.Update(keyPress("enter"))
	if len(fb.dispatched) != 0 {
		t.Fatal("Update dispatched synchronously; it must return a command")
	}
	if cmd == nil {
		t.Fatal("enter returned no command")
	}
	runCmds(t, nm.(Model), cmd, 0)
	if len(fb.dispatched) != 1 {
		t.Fatalf("running the command dispatched %d actions, want 1", len(fb.dispatched))
	}
}

func TestSendStartsTurnWhenIdle(t *testing.T) {
	m, fb := idleChat(t)
	m = typeText(t, m, "write a test")
	m = send(t, m, keyPress("enter"))
	d := fb.lastDispatch(t)
	a, ok := d.action.(*ahpwire.ChatTurnStarted)
	if !ok || d.channel != testChat {
		t.Fatalf("dispatched %T on %s, want ChatTurnStarted on %s", d.action, d.channel, testChat)
	}
	if a.Message.Text != "write a test" || a.Message.Origin.Kind != "user" || a.TurnID == "" || a.StartedAt == "" {
		t.Fatalf("bad turnStarted: %+v", a)
	}
	if m.chat.Composer.Value() != "" {
		t.Fatal("composer not cleared after sending")
	}
}

func TestSendWhileRunningQueues(t *testing.T) {
	m, fb := runningChat(t)
	m = typeText(t, m, "and then this")
	m = send(t, m, keyPress("enter"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatPendingMessageSet)
	if !ok || a.Kind != ahpwire.PendingQueued || a.Message.Text != "and then this" || a.ID == "" {
		t.Fatalf("want queued pendingMessageSet, got %#v", fb.lastDispatch(t).action)
	}
	// The echo puts it in the queue strip.
	m = send(t, m, envelope(5, a))
	if !strings.Contains(viewText(m), "queued: and then this") {
		t.Fatalf("queue not shown:\n%s", viewText(m))
	}
	// ctrl+x ctrl+x removes the newest queued message.
	m = send(t, m, keyPress("ctrl+x"))
	_ = send(t, m, keyPress("ctrl+x"))
	rm, ok := fb.lastDispatch(t).action.(*ahpwire.ChatPendingMessageRemoved)
	if !ok || rm.ID != a.ID {
		t.Fatalf("want pendingMessageRemoved %s, got %#v", a.ID, fb.lastDispatch(t).action)
	}
}

func TestEscCancelsRunningTurn(t *testing.T) {
	m, fb := runningChat(t)
	_ = send(t, m, keyPress("esc"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatTurnCancelled)
	if !ok || a.TurnID != "t2" || a.Duration == nil {
		t.Fatalf("want turnCancelled for t2 with duration, got %#v", fb.lastDispatch(t).action)
	}
	// Idle: esc dispatches nothing.
	m2, fb2 := idleChat(t)
	send(t, m2, keyPress("esc"))
	if len(fb2.dispatched) != 0 {
		t.Fatal("esc dispatched while idle")
	}
}

// failedTurn is turn id ended by an error part (AHP 0.6: no Turn.error).
func failedTurn(id string, resumable bool) ahpwire.Turn {
	turn := finishedTurn(id, "go", "partial")
	turn.State = ahpwire.TurnError
	turn.ResponseParts = append(turn.ResponseParts, ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "overloaded", Message: "model overloaded"}, resumable))
	return turn
}

func TestResumeAfterResumableError(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{failedTurn("t1", true)}, nil))
	if m.chat.ResumableTurn() != "t1" {
		t.Fatalf("resumable turn not detected: %q", m.chat.ResumableTurn())
	}
	if !strings.Contains(viewText(m), "turn failed") {
		t.Fatalf("the hint line does not offer the resume:\n%s", viewText(m))
	}
	send(t, m, keyPress("alt+r"))
	if a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatTurnResume); !ok || a.TurnID != "t1" {
		t.Fatalf("want turnResume t1, got %#v", fb.lastDispatch(t).action)
	}
}

// TestNoResumeOfferedTheHostRefuses: "may I resume" is AHP's rule
// (ahpstate.Resumable, which the host checks chat/turnResume against): a
// turn that failed resumably, was resumed and then failed for good is not
// resumable, though its transcript still shows the first, resumable
// error; nor is a turn a 0.5-era host ended with Turn.error.
func TestNoResumeOfferedTheHostRefuses(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{failedTurn("t1", true)}, nil))
	m = send(t, m, envelope(5, &ahpwire.ChatTurnResume{TurnID: "t1"}))
	fatal := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "auth", Message: "key revoked"}, false)
	m = send(t, m, envelope(6, &ahpwire.ChatError{TurnID: "t1", Duration: ahpwire.Ptr(int64(10)), Part: &fatal}))
	if m.chat.State.Current != nil {
		t.Fatal("the resumed turn did not end")
	}
	if got := m.chat.ResumableTurn(); got != "" {
		t.Fatalf("a turn that failed for good is offered for resuming: %q", got)
	}
	if v := viewText(m); strings.Contains(v, "turn failed") || !strings.Contains(v, "key revoked") {
		t.Fatalf("the screen offers a resume, or hides the error:\n%s", v)
	}
	n := len(fb.dispatched)
	send(t, m, keyPress("alt+r"))
	if len(fb.dispatched) != n {
		t.Fatalf("alt+r dispatched %#v", fb.lastDispatch(t).action)
	}

	legacy := failedTurn("t1", true)
	legacy.Error = &ahpwire.ErrorInfo{ErrorType: "overloaded", Message: "model overloaded"}
	m, _ = newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{legacy}, nil))
	if got := m.chat.ResumableTurn(); got != "" {
		t.Fatalf("a turn ended by a 0.5-era Turn.error is offered for resuming: %q", got)
	}
}

// TestDispatchAsksAHPsRules: an action AHP's rules refuse in the state the
// Mirror holds never leaves (whoever dispatches it: a key, a dialog's
// Sender); the user is told why.
func TestDispatchAsksAHPsRules(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{failedTurn("t1", false)}, nil))
	n := len(fb.dispatched)
	for _, d := range []func(string, ahpwire.Action, string) tea.Cmd{m.c.Dispatch, m.c.Sender()} {
		msg := d(testChat, &ahpwire.ChatTurnResume{TurnID: "t1"}, "resume turn")()
		if nm, ok := msg.(uikit.NoticeMsg); !ok || !nm.IsErr || !strings.HasPrefix(nm.Text, "cannot resume turn: ") {
			t.Fatalf("got %#v, want a notice why the resume was not sent", msg)
		}
		if len(fb.dispatched) != n {
			t.Fatalf("a resume AHP refuses was dispatched: %#v", fb.lastDispatch(t).action)
		}
	}
	m = runCmds(t, m, m.c.Dispatch(testChat, &ahpwire.ChatTruncated{TurnID: "t1"}, "truncate"), 0)
	if len(fb.dispatched) != n+1 {
		t.Fatal("an action AHP allows was not dispatched")
	}
}

func TestOutboxStripAndResend(t *testing.T) {
	m, fb := idleChat(t)
	act := &ahpwire.ChatTurnStarted{TurnID: "t9", Message: ahpwire.UserMessage("did it arrive?")}
	entry := ahpclient.OutboxEntry{ClientSeq: 42, Channel: testChat, Action: act, Status: ahpclient.OutboxHeld}
	m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: entry}})
	if !strings.Contains(viewText(m), "pending (sent when reconnected): did it arrive?") {
		t.Fatalf("held message not shown:\n%s", viewText(m))
	}
	entry.Status = ahpclient.OutboxUncertain
	m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: entry}})
	if !strings.Contains(viewText(m), "not confirmed — ctrl+y resends") {
		t.Fatal("uncertain message not marked")
	}
	m = send(t, m, keyPress("ctrl+y"))
	if !slices.Equal(fb.resent, []uint64{42}) {
		t.Fatalf("resent %v, want [42]", fb.resent)
	}
	entry.Status = ahpclient.OutboxResent
	m = send(t, m, connEventMsg{ev: ahpclient.OutboxEvent{Entry: entry}})
	if strings.Contains(viewText(m), "did it arrive?") {
		t.Fatal("resent entry still in the strip")
	}
}

func TestQuitConfirmsWhileTurnRuns(t *testing.T) {
	m, _ := idleChat(t)
	if _, cmd := m.Update(keyPress("ctrl+c")); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("ctrl+c while idle must quit")
	}
	m, _ = runningChat(t)
	nm, cmd := m.Update(keyPress("ctrl+c"))
	if cmd != nil {
		t.Fatal("ctrl+c during a turn quit without asking")
	}
	m = nm.(Model)
	if !strings.Contains(viewText(m), "Quit anyway?") {
		t.Fatal("no confirmation shown")
	}
	nm, cmd = m.Update(keyPress("y"))
	m = nm.(Model)
	_, cmd = m.Update(cmd())
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("confirming did not quit")
	}
}

func TestResizeAtAnyMoment(t *testing.T) {
	m, _ := runningChat(t, pendingTool())
	for _, sz := range [][2]int{{20, 5}, {1, 1}, {200, 60}, {80, 24}, {40, 10}} {
		m = send(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		if n := len(strings.Split(viewText(m), "\n")); n != sz[1] && sz[1] > 2 {
			t.Errorf("%dx%d: frame has %d lines", sz[0], sz[1], n)
		}
	}
}

func flatten(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, flatten(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func fmtType(v any) string { return strings.TrimPrefix(strings.TrimPrefix(typeName(v), "*"), "tea.") }

func TestConnectionFailureReported(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	if m.ConnectionFailure() != nil {
		t.Fatal("failure reported while connected")
	}
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Failed, Err: errUnauthorized}}})
	if err := m.ConnectionFailure(); err != errUnauthorized {
		t.Fatalf("ConnectionFailure = %v", err)
	}
	if !strings.Contains(viewText(m), "✗ Failed: unauthorized") {
		t.Fatalf("status line:\n%s", viewText(m))
	}
}

var errUnauthorized = errorString("unauthorized")

type errorString string

func (e errorString) Error() string { return string(e) }

// TestQuitPromptInDemoSaysTheTurnStops: with an embedded host the turn does
// not keep running on the host after quitting.
func TestQuitPromptInDemoSaysTheTurnStops(t *testing.T) {
	for _, stops := range []bool{false, true} {
		fb := &fakeBackend{}
		m := newModel(Options{Backend: fb, HostStopsOnQuit: stops, NoticeTTL: 1, FrameInterval: 1})
		m = send(t, m, tea.WindowSizeMsg{Width: 100, Height: 30})
		m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working"))))
		m = send(t, m, keyPress("ctrl+c"))
		v := strings.Join(strings.Fields(strings.ReplaceAll(viewText(m), "│", " ")), " ") // unwrap the dialog
		if keeps := strings.Contains(v, "keeps running on the host"); keeps == stops {
			t.Errorf("host stops %v: prompt says keeps running: %v\n%s", stops, keeps, v)
		}
		if stops && (!strings.Contains(v, "own host stops, and the turn with it") || strings.Contains(v, "demo")) { // also a real agent's (--agent)
			t.Errorf("demo quit prompt does not say the turn stops:\n%s", v)
		}
	}
}
