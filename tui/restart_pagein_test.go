package tui

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestRestartedHostPagesInAnEmptyWindow: a host restarted after a long
// reply sends, to the re-initialising client, a chat snapshot whose window
// is empty (the long reply is left to fetchTurns). The client restores its
// subscriptions before it takes requests again, so a fetch made for that
// snapshot fails "not connected" (the attached TUI then said "No messages
// yet" until the user scrolled). The chat pages the older turns in once
// connected, and no "not connected" notice shows.
func TestRestartedHostPagesInAnEmptyWindow(t *testing.T) {
	m, fb := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "first question", "first answer")}, nil))
	m = send(t, m, reconnecting(1, fixedNow.Add(time.Second)))
	fb.mu.Lock()
	before := len(fb.fetched)
	fb.mu.Unlock()

	empty := chatState(nil, nil)
	empty.TurnsNextCursor = "c9"
	m = send(t, m, snapshotEvent(t, testChat, empty))
	fb.mu.Lock()
	early := slices.Contains(fb.fetched[before:], "c9")
	fb.mu.Unlock()
	if early { // what the real client answers a request made before it is connected
		m = send(t, m, fetchedEvent("c9", ahpclient.ErrNotConnected))
	}
	connected := connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Connected, Recovery: ahpclient.RecoveryReinitialized}}}
	nm, cmd := m.Update(connected)
	if v := viewText(nm.(Model)); !strings.Contains(v, "reconnected — the host had restarted; the open chats were reloaded from it") {
		t.Errorf("the reconnection's notice (not 'reinitialized'):\n%s", v)
	}
	m = runCmds(t, nm.(Model), cmd, 0)
	if v := viewText(m); strings.Contains(v, "not connected") {
		t.Fatalf("a fetch made while reconnecting failed on screen:\n%s", v)
	}
	fb.mu.Lock()
	fetched := slices.Clone(fb.fetched[before:])
	fb.mu.Unlock()
	if n := len(fetched); n == 0 || fetched[n-1] != "c9" || (early && n < 2) {
		t.Fatalf("once connected the chat did not page its older turns in (fetched %q, early %v):\n%s", fetched, early, viewText(m))
	}
	m = send(t, m, envelope(5, &ahpwire.ChatTurnsLoaded{Turns: []ahpwire.Turn{finishedTurn("t1", "first question", "first answer")}}))
	m = send(t, m, fetchedEvent("c9", nil))
	if v := viewText(m); !strings.Contains(v, "first answer") || strings.Contains(v, "No messages yet") {
		t.Fatalf("the paged-in turn is not on screen:\n%s", v)
	}
}
