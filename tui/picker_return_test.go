package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/dialog"
)

// TestPickerKeepsTheLeftSessionSelected: back from a session (which moved
// to the top of the list meanwhile) the cursor is on it.
func TestPickerKeepsTheLeftSessionSelected(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: testSessions()}}})
	m = send(t, m, keyPress("down")) // "Write the README"
	m = send(t, m, keyPress("enter"))
	ss := ahpwire.SessionState{Provider: "copilot", Title: "Write the README", Lifecycle: ahpwire.LifecycleReady,
		DefaultChat: testChat, Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}}}
	m = send(t, m, snapshotEvent(t, "ahp-session:/b", ss))
	m = send(t, m, snapshotEvent(t, testChat, chatState(nil, nil)))
	if m.screen != screenChat {
		t.Fatal("not in the chat")
	}
	moved := testSessions()
	moved[1].ModifiedAt = ts(0) // now the newest
	moved[1].Status |= ahpwire.StatusIsRead
	fb.sessions = moved
	m = send(t, m, keyPress("ctrl+s"))
	if _, r := m.picker.Selected(); r != "ahp-session:/b" {
		t.Fatalf("cursor on %q after coming back", r)
	}
}

// TestPickerCountLeavesArchivedOut: the count is of the sessions listed.
func TestPickerCountLeavesArchivedOut(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	ss := testSessions()
	ss[2].Status |= ahpwire.StatusIsArchived
	m = send(t, m, connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: ss}}})
	head := strings.Split(viewText(m), "\n")[0]
	if !strings.Contains(head, "Sessions  2 · 1 archived") {
		t.Fatalf("head %q", head)
	}
}

// TestSteeringSentDoesNotLinger: the notice goes when the turn ends.
func TestSteeringSentDoesNotLinger(t *testing.T) {
	m, _ := runningChat(t)
	m.c.NoticeTTL = time.Hour
	m = typeText(t, m, "focus on the tests")
	m = send(t, m, altEnter())
	if !strings.Contains(m.notice, "steering sent") {
		t.Fatalf("notice %q", m.notice)
	}
	m = send(t, m, envelope(9, &ahpwire.ChatTurnComplete{TurnID: "t2"}))
	if m.chat.State.Current != nil {
		t.Fatal("turn still running")
	}
	if strings.Contains(viewText(m), "steering sent") {
		t.Fatalf("the notice lingers:\n%s", viewText(m))
	}
}

func TestDroppedNoteAtTheScrollbackCap(t *testing.T) {
	if dialog.DroppedNote(10) != "" {
		t.Fatal("a note under the cap")
	}
	if n := dialog.DroppedNote(render.TerminalScrollback + 24); !strings.Contains(n, "older lines dropped (the last 2,000 are kept)") {
		t.Fatalf("note %q", n)
	}
}
