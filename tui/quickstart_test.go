package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/picker"
)

func quickModel(t *testing.T, w, h int) (Model, *fakeBackend) {
	t.Helper()
	fb := &fakeBackend{}
	n := 0
	m := newModel(Options{Backend: fb, Host: "h", Dark: true, QuickStart: true, HostStopsOnQuit: true,
		Now: func() time.Time { return fixedNow }, NewID: func() string { n++; return "q" + string(rune('0'+n)) },
		FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	m = send(t, m, snapshotEvent(t, "ahp-root://", ahpwire.RootState{Agents: []ahpwire.AgentInfo{
		{Provider: "demo", DisplayName: "Demo"}, {Provider: "other", DisplayName: "Other"}}}))
	return m, fb
}

func TestQuickStartOpensANewChatOnAnEmptyHost(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, fb := quickModel(t, size[0], size[1])
		m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{}}})
		if len(fb.created) != 1 || fb.created[0].Provider != "demo" {
			t.Fatalf("created %+v", fb.created)
		}
		// What is typed while the session is created becomes the draft.
		m = typeText(t, m, "hi there")
		uri := fb.created[0].Channel
		ss := ahpwire.SessionState{Provider: "demo", Title: "New", Lifecycle: ahpwire.LifecycleReady,
			DefaultChat: testChat, Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}}}
		m = send(t, m, snapshotEvent(t, uri, ss))
		m = send(t, m, snapshotEvent(t, testChat, chatState(nil, nil)))
		if m.screen != screenChat || m.chat == nil {
			t.Fatalf("no chat opened:\n%s", viewText(m))
		}
		if got := m.chat.Composer.Value(); got != "hi there" {
			t.Fatalf("draft %q", got)
		}
		m.chat.Composer.SetValue("")
		v := viewText(m)
		if !strings.Contains(v, "/demo help") || !strings.Contains(v, "ctrl+s sessions") {
			t.Fatalf("%dx%d: the empty chat's hint:\n%s", size[0], size[1], v)
		}
		// Only once: back on the picker nothing is created again.
		m = send(t, m, keyPress("ctrl+s"))
		m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{}}})
		if len(fb.created) != 1 {
			t.Fatalf("created again: %+v", fb.created)
		}
	}
}

func TestQuickStartLeavesAHostWithSessionsOnThePicker(t *testing.T) {
	m, fb := quickModel(t, 80, 24)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	if len(fb.created) != 0 || m.screen != screenPicker {
		t.Fatalf("created %+v on a host with sessions", fb.created)
	}
}

func TestTypingIntoAGuardedPromptGoesToTheComposer(t *testing.T) {
	now := fixedNow
	m, fb := promptWhileTyping(t, &now, 200*time.Millisecond)
	m = typeText(t, m, "d a")
	if len(fb.dispatched) != 0 || len(m.overlays) != 1 {
		t.Fatalf("typing was taken as a decision: %v", fb.dispatched)
	}
	if got := m.chat.Composer.Value(); got != "and a" {
		t.Fatalf("the composer has %q, want every key typed", got)
	}
}

// A decision key pressed as the first key after an approval prompt
// appeared while the draft holds no word it would continue (the message
// was just sent) is meant for the prompt: it is not typed into the draft
// (it went out with the next message), and the status line says so.
func TestDecisionKeyDuringGuardNotTyped(t *testing.T) {
	now := fixedNow
	fb := &fakeBackend{}
	m := newModel(Options{Backend: fb, Host: "h", Dark: true, Now: func() time.Time { return now },
		NewID: func() string { return "id" }, FrameInterval: time.Nanosecond, NoticeTTL: time.Hour})
	m = send(t, m, teaSize(100, 30))
	m = openChat(t, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", "working"))))
	m = typeText(t, m, "go") // then sent: the draft is empty again
	m.chat.Composer.SetValue("")
	now = now.Add(200 * time.Millisecond)
	m = send(t, m, envelope(4, &ahpwire.ChatToolCallStart{TurnID: "t2", ToolCallID: "tc1", ToolName: "run_command", DisplayName: "Run command"}))
	m = send(t, m, envelope(5, &ahpwire.ChatToolCallReady{TurnID: "t2", ToolCallID: "tc1",
		InvocationMessage: ahpwire.Plain("Run `ls`"), ToolInput: ahpwire.InlineInput(`{"command":"ls"}`)}))
	m = send(t, m, keyPress("a"))
	if len(fb.dispatched) != 0 || len(m.overlays) != 1 {
		t.Fatalf("a key during the guard decided: %v", fb.dispatched)
	}
	if got := m.chat.Composer.Value(); got != "" {
		t.Fatalf("the decision key went into the draft: %q", got)
	}
	if !strings.Contains(statusLine(m), `"a" not typed`) {
		t.Fatalf("not said: %q", statusLine(m))
	}
	m = typeText(t, m, "ok")
	if got := m.chat.Composer.Value(); got != "ok" {
		t.Fatalf("typing on goes to the draft: %q", got)
	}
}

// TestChangesHintAfterEdits: once the session lists changes, the hint line
// names the changes view.
func TestChangesHintAfterEdits(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	m = send(t, m, picker.OpenSessionMsg{Session: testSession})
	ss := ahpwire.SessionState{Provider: "demo", Title: "edits", Lifecycle: ahpwire.LifecycleReady, DefaultChat: testChat,
		Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}}}
	m = send(t, m, snapshotEvent(t, testSession, ss))
	m = send(t, m, snapshotEvent(t, testChat, chatState([]ahpwire.Turn{finishedTurn("t1", "edit", "done")}, nil)))
	if strings.Contains(viewText(m), "changes") {
		t.Fatal("a changes hint without changes")
	}
	ss.Changesets = []ahpwire.Changeset{{Label: "Edits", URITemplate: "ahp-changeset:/c1"}}
	m = send(t, m, snapshotEvent(t, testSession, ss))
	if !strings.Contains(viewText(m), "f6/alt+e changes") {
		t.Fatalf("no changes hint:\n%s", viewText(m))
	}
}

// TestTypingWhileTheFormLoadsIsKept: text typed between ctrl+n and the
// form reaches the new chat's composer instead of the picker's filter.
func TestTypingWhileTheFormLoadsIsKept(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m.picker.Status = "loading session options…" // ctrl+n asked the host for the form
	m = typeText(t, m, "fix it")
	if m.picker.Filter.Value() != "" || m.carry != "fix it" {
		t.Fatalf("filter %q carry %q", m.picker.Filter.Value(), m.carry)
	}
}
