package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/picker"
)

func TestPickerHintsAndReturnSelectsLeftSession(t *testing.T) {
	m, fb := newTestModel(t, 100, 20)
	fb.sessions = testSessions()
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	v := viewText(m)
	if !strings.Contains(v, "ctrl+n new session") || !strings.Contains(v, "ctrl+x dispose") || !strings.Contains(v, "f1 help") {
		t.Fatalf("picker shows no key hints:\n%s", v)
	}
	// Open the third session, go back: the cursor is on it.
	m = send(t, m, keyPress("down"))
	m = send(t, m, keyPress("down"))
	m = send(t, m, picker.OpenSessionMsg{Session: "ahp-session:/c"})
	ss := ahpwire.SessionState{Provider: "demo", Title: "Benchmark", Lifecycle: ahpwire.LifecycleReady,
		DefaultChat: testChat, Chats: []ahpwire.ChatSummary{{Resource: testChat}}}
	m = send(t, m, snapshotEvent(t, "ahp-session:/c", ss))
	m.picker.Cursor = 0 // as if the list had been refreshed meanwhile
	m = send(t, m, keyPress("ctrl+s"))
	if m.screen != screenPicker || m.picker.SelectedResource() != "ahp-session:/c" {
		t.Fatalf("back in the picker on %q, want the session just left", m.picker.SelectedResource())
	}
}

func TestPickerEnterWithNoSessionsSaysHowToCreate(t *testing.T) {
	m, _ := newTestModel(t, 100, 20)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{}})
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "no session yet — ctrl+n creates one") {
		t.Fatalf("enter on an empty list gives no feedback:\n%s", viewText(m))
	}
	m = send(t, m, keyPress("down"))
	if strings.Contains(viewText(m), "no session yet —") {
		t.Fatal("the note outlives the next key")
	}
}

func TestMouseWheelMovesPickerCursor(t *testing.T) {
	m, _ := newTestModel(t, 100, 20)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.picker.Cursor != 1 {
		t.Fatalf("wheel down: cursor %d", m.picker.Cursor)
	}
	m = send(t, m, tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	if m.picker.Cursor != 0 {
		t.Fatalf("wheel up: cursor %d", m.picker.Cursor)
	}
}
