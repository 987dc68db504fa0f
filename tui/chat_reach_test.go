package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
)

// longChat is a chat with more transcript than fits an 80x12 screen.
func longChat(t *testing.T) (Model, *fakeBackend) {
	t.Helper()
	m, fb := newTestModel(t, 80, 12)
	var turns []ahpwire.Turn
	for i := range 10 {
		turns = append(turns, finishedTurn("t"+string(rune('a'+i)), "question "+string(rune('a'+i)), "answer"))
	}
	return openChat(t, m, chatState(turns, nil)), fb
}

func TestPageKeysScrollTheTranscriptWhileTyping(t *testing.T) {
	m, _ := longChat(t)
	m = typeText(t, m, "draft")
	if !m.chat.Transcript.Following() {
		t.Fatal("a new chat does not follow its end")
	}
	before := viewText(m)
	m = send(t, m, keyPress("pgup"))
	if m.chat.Transcript.Following() || viewText(m) == before {
		t.Fatalf("pgup in the composer did not scroll the transcript:\n%s", viewText(m))
	}
	if m.chat.Focus != chat.FocusComposer || m.chat.Composer.Value() != "draft" {
		t.Fatalf("pgup moved the focus (%v) or changed the draft (%q)", m.chat.Focus, m.chat.Composer.Value())
	}
	for range 10 {
		m = send(t, m, keyPress("pgdown"))
	}
	if !m.chat.Transcript.Following() {
		t.Fatal("pgdown to the end did not follow again")
	}
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.chat.Transcript.Following() || m.chat.Composer.Value() != "draft" {
		t.Fatal("the mouse wheel does not scroll the transcript while typing")
	}
}

func TestPrintableKeysInTheTranscriptGoToTheComposer(t *testing.T) {
	m, _ := longChat(t)
	m = send(t, m, keyPress("tab"))
	if m.chat.Focus != chat.FocusTranscript {
		t.Fatal("tab did not focus the transcript")
	}
	m = typeText(t, m, "hello")
	if m.chat.Focus != chat.FocusComposer || m.chat.Composer.Value() != "hello" {
		t.Fatalf("typed text vanished: focus %v, draft %q", m.chat.Focus, m.chat.Composer.Value())
	}
	// Keys that mean something in the transcript keep their meaning.
	m = send(t, m, keyPress("tab"))
	m = send(t, m, keyPress("k"))
	if m.chat.Focus != chat.FocusTranscript || m.chat.Transcript.Following() {
		t.Fatal("k no longer scrolls the transcript")
	}
}

func TestCtrlNInAChatCreatesASessionWithTheSameAgent(t *testing.T) {
	m, fb := newTestModel(t, 80, 24)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m = typeText(t, m, "zzz") // a filter that hides every session
	m = openChat(t, m, chatState(nil, nil))
	m = send(t, m, keyPress("ctrl+n"))
	fb.mu.Lock()
	created := append([]ahpwire.CreateSessionParams(nil), fb.created...)
	fb.mu.Unlock()
	if len(created) != 1 || created[0].Provider != "demo" {
		t.Fatalf("ctrl+n in a chat created %+v, want one session with provider demo", created)
	}
	if m.picker.Filter.Value() != "" {
		t.Fatalf("the picker's filter %q survived leaving the chat", m.picker.Filter.Value())
	}
	if v := viewText(m); !strings.Contains(v, "creating session") {
		t.Fatalf("no progress shown:\n%s", v)
	}
}

func TestPickerFilterClearedWhenComingBack(t *testing.T) {
	m, fb := newTestModel(t, 80, 24)
	fb.sessions = testSessions()
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m = typeText(t, m, "readme")
	m = openChat(t, m, chatState(nil, nil))
	m = send(t, m, keyPress("ctrl+s"))
	if m.screen != screenPicker || m.picker.Filter.Value() != "" || len(m.picker.Shown) != len(testSessions()) {
		t.Fatalf("back in the picker: screen %v, filter %q, %d of %d shown", m.screen, m.picker.Filter.Value(), len(m.picker.Shown), len(testSessions()))
	}
}
