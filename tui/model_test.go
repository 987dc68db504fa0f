package tui

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
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
	if m.chat.comp.Value() != "" {
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
	// ctrl+x removes the newest queued message.
	m = send(t, m, keyPress("ctrl+x"))
	rm, ok := fb.lastDispatch(t).action.(*ahpwire.ChatPendingMessageRemoved)
	if !ok || rm.ID != a.ID {
		t.Fatalf("want pendingMessageRemoved %s, got %#v", a.ID, fb.lastDispatch(t).action)
	}
}

func TestEscCancelsRunningTurn(t *testing.T) {
	m, fb := runningChat(t)
	m = send(t, m, keyPress("esc"))
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

func TestResumeAfterResumableError(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	turn := finishedTurn("t1", "go", "partial")
	turn.State = ahpwire.TurnError
	turn.Error = &ahpwire.ErrorInfo{ErrorType: "overloaded", Message: "model overloaded"}
	turn.ResponseParts = append(turn.ResponseParts, ahpwire.ErrorPart(*turn.Error, true))
	m = openChat(t, m, chatState([]ahpwire.Turn{turn}, nil))
	if m.chat.resumableTurn() != "t1" {
		t.Fatalf("resumable turn not detected: %q", m.chat.resumableTurn())
	}
	send(t, m, keyPress("ctrl+r"))
	if a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatTurnResume); !ok || a.TurnID != "t1" {
		t.Fatalf("want turnResume t1, got %#v", fb.lastDispatch(t).action)
	}
}

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
	if _, ok := m.overlays[len(m.overlays)-1].(*approvalPrompt); !ok {
		t.Fatal("ctrl+p did not reopen the approval")
	}
	// Resolved elsewhere (another client approved): the prompt closes.
	m = send(t, m, envelope(6, &ahpwire.ChatToolCallConfirmed{TurnID: "t2", ToolCallID: "tc1", Approved: true, Confirmed: "user-action"}))
	if len(m.overlays) != 0 || strings.Contains(viewText(m), "waiting for you (ctrl+p)") {
		t.Fatal("prompt or count left after the tool call was confirmed")
	}
}

func TestResultConfirmation(t *testing.T) {
	tool := pendingTool()
	tool.ToolCall.Status = ahpwire.ToolPendingResultConfirmation
	tool.ToolCall.Confirmed = "user-action"
	tool.ToolCall.Options = nil
	tool.ToolCall.Success = ahpwire.Ptr(true)
	tool.ToolCall.PastTenseMessage = ahpwire.PlainPtr("Ran `go test ./...`")
	tool.ToolCall.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentText, Text: "ok  ./... 0.1s"}}
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

func TestInputFormSubmitDeclineCancel(t *testing.T) {
	m, fb := runningChat(t, inputPart())
	// Required field empty: submit refuses.
	for range 3 {
		m = send(t, m, keyPress("tab"))
	}
	m = send(t, m, keyPress("enter"))
	if len(fb.dispatched) != 0 || !strings.Contains(viewText(m), "is required") {
		t.Fatalf("submitted without the required answer:\n%s", viewText(m))
	}
	if f := m.overlays[0].(*inputForm); f.cur != 0 {
		t.Fatalf("focus stayed on field %d; it must jump to the missing answer (0)", f.cur)
	}
	m = typeText(t, m, "myproj")
	m = send(t, m, keyPress("enter")) // -> language
	m = send(t, m, keyPress("down"))  // Rust
	m = send(t, m, keyPress("enter")) // picks Rust -> tests
	m = send(t, m, keyPress("y"))
	m = send(t, m, keyPress("enter")) // -> workers
	m = typeText(t, m, "4")
	send(t, m, keyPress("enter"))
	a, ok := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	if !ok || a.RequestID != "q1" || a.Response != "accept" {
		t.Fatalf("want inputCompleted accept, got %#v", fb.lastDispatch(t).action)
	}
	want := map[string]string{"name": "myproj", "lang": "rust", "tests": "true", "n": "4"}
	for id, v := range want {
		ans, ok := a.Answers[id]
		if !ok || ans.State != "submitted" || ans.Value == nil || ans.Value.String() != v {
			t.Errorf("answer %s = %+v, want submitted %q", id, ans, v)
		}
	}
	// Decline and cancel need a second press; any other key disarms them.
	m, fb = runningChat(t, inputPart())
	m = send(t, m, keyPress("ctrl+d"))
	if len(fb.dispatched) != 0 || !strings.Contains(viewText(m), "again to decline") {
		t.Fatalf("one ctrl+d must only ask for confirmation:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("ctrl+d"))
	if len(fb.dispatched) != 0 {
		t.Fatal("ctrl+d after another key must ask again")
	}
	send(t, m, keyPress("ctrl+d"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted); a.Response != "decline" {
		t.Fatalf("ctrl+d ctrl+d: %s", a.Response)
	}
	m, fb = runningChat(t, inputPart())
	m = send(t, m, keyPress("ctrl+x"))
	send(t, m, keyPress("ctrl+x"))
	if a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted); a.Response != "cancel" {
		t.Fatalf("ctrl+x ctrl+x: %s", a.Response)
	}
	// esc only closes the form; the question stays pending and ctrl+p reopens it.
	m, fb = runningChat(t, inputPart())
	m = send(t, m, keyPress("esc"))
	if len(fb.dispatched) != 0 || len(m.overlays) != 0 || !strings.Contains(viewText(m), "1 waiting for you") {
		t.Fatal("esc must close the form without answering")
	}
	m = send(t, m, keyPress("ctrl+p"))
	if _, ok := m.overlays[0].(*inputForm); !ok {
		t.Fatal("ctrl+p did not reopen the form")
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

func TestHistoryFetchedWhenScrolledToTop(t *testing.T) {
	m, fb := newTestModel(t, 100, 20)
	var turns []ahpwire.Turn
	for i := range 20 {
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "question", "answer"))
	}
	cs := chatState(turns, nil)
	cs.TurnsNextCursor = "cursor-1"
	m = openChat(t, m, cs)
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("g"))
	if !slices.Equal(fb.fetched, []string{"cursor-1"}) {
		t.Fatalf("fetchTurns calls %v, want [cursor-1]", fb.fetched)
	}
	// Older turns arrive; the window stays on what the user was reading.
	top := strings.Split(viewText(m), "\n")[0]
	older := []ahpwire.Turn{finishedTurn("old1", "older question", "older answer")}
	m = send(t, m, envelope(9, &ahpwire.ChatTurnsLoaded{Turns: older}))
	if got := strings.Split(viewText(m), "\n")[0]; got != top {
		t.Fatalf("window jumped after history loaded: %q -> %q", top, got)
	}
	m = send(t, m, keyPress("g"))
	if !strings.Contains(viewText(m), "older question") {
		t.Fatal("loaded history not reachable")
	}
}

func TestComposerLargePasteIntactAndHistory(t *testing.T) {
	m, fb := idleChat(t)
	paste := strings.Repeat("line\twith tab and trailing spaces   \n", 500) + "last line"
	m = send(t, m, tea.PasteMsg{Content: paste})
	if v := m.chat.comp.Value(); !strings.Contains(v, "[paste #1: 501 lines") || len(v) > 100 {
		t.Fatalf("large paste not shown as a chip: %q", v[:min(len(v), 100)])
	}
	m = typeText(t, m, " please review")
	m = send(t, m, keyPress("enter"))
	a := fb.lastDispatch(t).action.(*ahpwire.ChatTurnStarted)
	if a.Message.Text != paste+" please review" {
		t.Fatalf("paste not sent intact (len %d, want %d)", len(a.Message.Text), len(paste)+14)
	}
	m = send(t, m, keyPress("up"))
	if !strings.Contains(m.chat.comp.Value(), "[paste #1") {
		t.Fatalf("history recall: %q", m.chat.comp.Value())
	}
	// A recalled draft sends the pasted text again, never the chip.
	if m.chat.comp.Expanded() != paste+" please review" {
		t.Fatal("recalled paste chip lost its content")
	}
	m = send(t, m, keyPress("down"))
	if m.chat.comp.Value() != "" {
		t.Fatal("down did not return to the empty draft")
	}
	// Small pastes go straight into the editor.
	m = send(t, m, tea.PasteMsg{Content: "small\npaste"})
	if m.chat.comp.Value() != "small\npaste" {
		t.Fatalf("small paste: %q", m.chat.comp.Value())
	}
}

func TestPasteLineBreaksFromTerminal(t *testing.T) {
	// xterm and tmux send a paste's line breaks as CR; the agent must get LF.
	m, fb := idleChat(t)
	want := strings.Repeat("line\twith tab\n", 100) + "end"
	m = send(t, m, tea.PasteMsg{Content: strings.ReplaceAll(want, "\n", "\r")})
	if v := m.chat.comp.Value(); !strings.Contains(v, "101 lines") {
		t.Fatalf("chip counts the lines wrong: %q", v)
	}
	send(t, m, keyPress("enter"))
	if got := fb.lastDispatch(t).action.(*ahpwire.ChatTurnStarted).Message.Text; got != want {
		t.Fatalf("CR line breaks were not turned into LF: %q", got[:40])
	}
	m, _ = idleChat(t)
	m = send(t, m, tea.PasteMsg{Content: "a\r\nb\rc"})
	if v := m.chat.comp.Value(); v != "a\nb\nc" {
		t.Fatalf("small paste: %q", v)
	}
}

func TestNewlineKeysDoNotSend(t *testing.T) {
	m, fb := idleChat(t)
	m = typeText(t, m, "a")
	m = send(t, m, tea.KeyPressMsg{Code: 'j', Mod: tea.ModCtrl})
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyEnter, Mod: tea.ModShift})
	m = typeText(t, m, "b")
	if len(fb.dispatched) != 0 || m.chat.comp.Value() != "a\n\nb" {
		t.Fatalf("newline keys: dispatched %d, value %q", len(fb.dispatched), m.chat.comp.Value())
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
	nm, cmd = m.Update(cmd())
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("confirming did not quit")
	}
}

func TestHelpOverlayListsBindings(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, keyPress("f1"))
	v := viewText(m)
	for _, want := range []string{"Key bindings", "Composer", "ctrl+j", "send", "cancel turn"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	m = send(t, m, keyPress("esc"))
	if len(m.overlays) != 0 {
		t.Fatal("esc did not close help")
	}
}

func TestThinkingCycleAndBlockToggle(t *testing.T) {
	m, _ := runningChat(t, ahpwire.ReasoningPart("t2.r1", "first thought\nsecond thought\nthird thought"))
	if strings.Contains(viewText(m), "second thought") {
		t.Fatal("thinking shown in full while collapsed")
	}
	m = send(t, m, keyPress("ctrl+t"))
	m = send(t, m, keyPress("ctrl+t"))
	if m.chat.thinking != thinkingFull || !strings.Contains(viewText(m), "second thought") {
		t.Fatalf("full thinking view not shown (mode %v)", m.chat.thinking)
	}
	m = send(t, m, keyPress("ctrl+t")) // back to collapsed
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("]")) // user text
	m = send(t, m, keyPress("]")) // thinking
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "second thought") {
		t.Fatalf("expanding the focused thinking block failed:\n%s", viewText(m))
	}
}

func TestCopyFocusedBlockUsesOSC52(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("["))
	_, cmd := m.Update(keyPress("y"))
	if cmd == nil {
		t.Fatal("y returned no command")
	}
	found := false
	for _, msg := range flatten(cmd) {
		if strings.Contains(strings.ToLower(fmtType(msg)), "clipboard") {
			found = true
		}
	}
	if !found {
		t.Fatal("copy did not issue a clipboard (OSC 52) command")
	}
}

func TestDemoFaultKey(t *testing.T) {
	called := 0
	fb := &fakeBackend{}
	m := New(Options{Backend: fb, DemoFault: func() { called++ }, NoticeTTL: 1})
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = send(t, m, keyPress("f12"))
	if called != 1 {
		t.Fatalf("demo fault called %d times", called)
	}
	m2, _ := newTestModel(t, 80, 24) // no DemoFault: the key is inert
	send(t, m2, keyPress("f12"))
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

func TestPickerFlows(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	// Live updates from root notifications.
	m = send(t, m, connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionAdded",
		Params: []byte(`{"channel":"ahp-root://","summary":{"resource":"ahp-session:/d","provider":"demo","title":"Brand new","status":1,"createdAt":"2026-11-22T12:00:00Z","modifiedAt":"2026-11-22T12:00:00Z"}}`)}})
	m = send(t, m, connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionRemoved",
		Params: []byte(`{"channel":"ahp-root://","session":"ahp-session:/b"}`)}})
	v := viewText(m)
	if !strings.Contains(v, "Brand new") || strings.Contains(v, "Write the README") {
		t.Fatalf("live list not updated:\n%s", v)
	}
	// Dispose asks first.
	m = send(t, m, keyPress("ctrl+x"))
	if !strings.Contains(viewText(m), "Dispose session") || len(fb.disposed) != 0 {
		t.Fatal("dispose did not ask for confirmation")
	}
	m = send(t, m, keyPress("y"))
	if !slices.Equal(fb.disposed, []string{"ahp-session:/a"}) { // the selection stays on the same session across live updates
		t.Fatalf("disposed %v", fb.disposed)
	}
	// New session with several agents: choose one.
	m = send(t, m, snapshotEvent(t, "ahp-root://", ahpwire.RootState{Agents: []ahpwire.AgentInfo{
		{Provider: "demo", DisplayName: "Demo"}, {Provider: "copilot", DisplayName: "Copilot"}}}))
	m = send(t, m, keyPress("ctrl+n"))
	if !strings.Contains(viewText(m), "choose an agent") {
		t.Fatal("no agent choice")
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("enter"))
	if len(fb.created) != 1 || fb.created[0].Provider != "copilot" || !strings.HasPrefix(fb.created[0].Channel, "ahp-session:/") {
		t.Fatalf("created %+v", fb.created)
	}
	// The new session has two chats: pick one.
	ss := ahpwire.SessionState{Provider: "copilot", Lifecycle: ahpwire.LifecycleCreating}
	m = send(t, m, snapshotEvent(t, fb.created[0].Channel, ss))
	if m.screen != screenPicker {
		t.Fatal("opened a session that is still creating")
	}
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: fb.created[0].Channel, ServerSeq: 3,
		Action: &ahpwire.SessionChatAdded{Summary: ahpwire.ChatSummary{Resource: "ahp-chat:/x", Title: "first"}}}}})
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: fb.created[0].Channel, ServerSeq: 4,
		Action: &ahpwire.SessionChatAdded{Summary: ahpwire.ChatSummary{Resource: "ahp-chat:/y", Title: "second"}}}}})
	m = send(t, m, connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: fb.created[0].Channel, ServerSeq: 5,
		Action: &ahpwire.SessionReady{}}}})
	if !strings.Contains(viewText(m), "several chats") {
		t.Fatalf("no chat choice:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("enter"))
	if m.screen != screenChat || m.chat.chat != "ahp-chat:/y" {
		t.Fatalf("chat not opened: screen %v", m.screen)
	}
	if fb.subscribed[len(fb.subscribed)-1] != "ahp-chat:/y" {
		t.Fatalf("subscriptions %v", fb.subscribed)
	}
	// ctrl+s goes back to the picker.
	m = send(t, m, keyPress("ctrl+s"))
	if m.screen != screenPicker || m.chat != nil {
		t.Fatal("ctrl+s did not return to the picker")
	}
}

func TestComposerBindingsDoNotConflict(t *testing.T) {
	km := keymap.Default()
	km.Demo.DropConnection.SetEnabled(true)
	st := newStyles(render.DarkStyles())
	c := newComposer(km.Composer, &st)
	all := append(append(append(c.textareaBindings(), key.Binding(km.Global.Quit), km.Global.Help, km.Demo.DropConnection),
		bindingsOfChat(km)...), bindingsOfComposer(km)...)
	// InsertNewline is our Newline binding; count it once.
	seen := map[string]string{}
	for _, b := range all {
		if !b.Enabled() {
			continue
		}
		for _, k := range b.Keys() {
			if prev, dup := seen[k]; dup && prev != b.Help().Desc {
				t.Errorf("key %q bound to %q and %q in the composer", k, prev, b.Help().Desc)
			}
			seen[k] = b.Help().Desc
		}
	}
}

func bindingsOfChat(km keymap.KeyMap) []key.Binding {
	c := km.Chat
	return []key.Binding{c.CancelTurn, c.SwitchFocus, c.CycleThinking, c.Resume, c.Resend, c.OpenPrompt, c.Sessions}
}

func bindingsOfComposer(km keymap.KeyMap) []key.Binding {
	c := km.Composer
	return []key.Binding{c.Send, c.Editor, c.Unqueue}
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

func TestMouseWheelScrollsTranscript(t *testing.T) {
	m, _ := newTestModel(t, 80, 12)
	var turns []ahpwire.Turn
	for i := range 10 {
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "q", "answer"))
	}
	m = openChat(t, m, chatState(turns, nil))
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.chat.tr.Following() {
		t.Fatal("wheel up did not scroll away from the bottom")
	}
	for range 20 {
		m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	}
	if !m.chat.tr.Following() {
		t.Fatal("wheel down to the end did not follow again")
	}
}

func TestMultiSelectWithFreeform(t *testing.T) {
	yes := true
	part := ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &ahpwire.ChatInputRequest{ID: "q2",
		Questions: []ahpwire.ChatInputQuestion{{Kind: ahpwire.QuestionMultiSelect, ID: "tags", Message: "Tags?", AllowFreeformInput: &yes,
			Options: []ahpwire.ChatInputOption{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}, {ID: "c", Label: "C"}}}}}}
	m, fb := runningChat(t, part)
	m = send(t, m, keyPress("space")) // A
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("space")) // C
	m = send(t, m, keyPress("down"))  // free-form row
	m = typeText(t, m, "zed")
	send(t, m, keyPress("enter"))
	a := fb.lastDispatch(t).action.(*ahpwire.ChatInputCompleted)
	v := a.Answers["tags"].Value
	if v == nil || v.Kind != "selected-many" || v.String() != "a, c" || !slices.Equal(v.FreeformValues, []string{"zed"}) {
		t.Fatalf("multi-select answer: %+v", v)
	}
}

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
