package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
)

func inboxSend(m Inbox, msg tea.Msg) Inbox {
	nm, _ := m.Update(msg)
	return nm.(Inbox)
}

// TestInbox: hosts show their own state as they answer (a down host does
// not block the others), sessions that need the user come first, the
// selection follows its session, enter returns the choice, and the frame
// never exceeds the terminal.
func TestInbox(t *testing.T) {
	m := NewInbox(InboxOptions{Hosts: []string{"box", "work"}, Dark: true})
	m = inboxSend(m, tea.WindowSizeMsg{Width: 60, Height: 20})
	if v := ansi.Strip(m.View().Content); strings.Count(v, "connecting…") != 2 {
		t.Fatalf("initial view:\n%s", v)
	}
	m = inboxSend(m, inboxUpdateMsg{h: InboxHost{Name: "work", State: "connected", Sessions: []ahpwire.SessionSummary{
		{Resource: "ahp-session:/a", Title: "Idle one", Status: ahpwire.StatusIdle | ahpwire.StatusIsRead},
		{Resource: "ahp-session:/b", Title: "Asks\x1b[31m you", Status: ahpwire.StatusInputNeeded},
		{Resource: "ahp-session:/c", Title: "Unread", Status: ahpwire.StatusIdle},
	}}})
	v := ansi.Strip(m.View().Content)
	if !strings.Contains(v, "@box  connecting…") || !strings.Contains(v, "@work  connected") {
		t.Fatalf("states:\n%s", v)
	}
	b, a := strings.Index(v, "! Asks you"), strings.Index(v, "Idle one")
	if b < 0 || a < 0 || b > a || !strings.Contains(v, "* Unread") || strings.Contains(m.View().Content, "\x1b[31m") {
		t.Fatalf("order, markers or sanitising:\n%s", v)
	}
	m = inboxSend(m, tea.KeyPressMsg{Code: tea.KeyDown})
	if r, _ := m.selected(); r.s.Resource != "ahp-session:/c" {
		t.Fatalf("selected %v", r.s.Resource)
	}
	m = inboxSend(m, inboxUpdateMsg{h: InboxHost{Name: "box", State: "cannot connect: refused"}})
	if r, _ := m.selected(); r.s.Resource != "ahp-session:/c" {
		t.Fatalf("selection moved to %v", r.s.Resource)
	}
	nm, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := nm.(Inbox).Choice(); got != (InboxChoice{Host: "work", Session: "ahp-session:/c"}) || cmd == nil {
		t.Fatalf("choice %+v", got)
	}
	small := inboxSend(m, tea.WindowSizeMsg{Width: 20, Height: 4})
	for i := 0; i < 3; i++ {
		small = inboxSend(small, tea.KeyPressMsg{Code: tea.KeyDown})
	}
	lines := strings.Split(small.View().Content, "\n")
	if len(lines) > 4 || !strings.Contains(ansi.Strip(small.View().Content), "›") {
		t.Fatalf("small frame (%d lines):\n%s", len(lines), small.View().Content)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 20 {
			t.Fatalf("line wider than 20: %q", l)
		}
	}
}

// TestInboxUpdatesChannel: Init reads updates from the channel until it closes.
func TestInboxUpdatesChannel(t *testing.T) {
	ch := make(chan InboxHost, 1)
	ch <- InboxHost{Name: "x", State: "connected"}
	close(ch)
	m := NewInbox(InboxOptions{Hosts: []string{"x"}, Updates: ch})
	msg := m.Init()()
	m = inboxSend(m, msg)
	if m.hosts[0].State != "connected" {
		t.Fatalf("state %q", m.hosts[0].State)
	}
	if _, ok := m.wait()().(inboxDoneMsg); !ok {
		t.Fatal("closed channel not reported")
	}
}

// TestOpenSessionAtStart: Options.OpenSession subscribes to that session
// at once (the inbox's choice opens directly).
func TestOpenSessionAtStart(t *testing.T) {
	fb := &fakeBackend{}
	m := New(Options{Backend: fb, Dark: true, OpenSession: "ahp-session:/x"})
	m = send(t, m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = runCmds(t, m, m.Init(), 0)
	if m.open == nil || m.open.session != "ahp-session:/x" {
		t.Fatalf("not opening the session: %+v", m.open)
	}
}

// TestInboxNotifies: a session that starts needing the user while the
// inbox shows rings once.
func TestInboxNotifies(t *testing.T) {
	m := NewInbox(InboxOptions{Hosts: []string{"h"}, Notify: &NotifyOptions{Bell: true}})
	s := ahpwire.SessionSummary{Resource: "ahp-session:/q", Title: "Q", Status: ahpwire.StatusInProgress}
	m = inboxSend(m, inboxUpdateMsg{h: InboxHost{Name: "h", State: "connected", Sessions: []ahpwire.SessionSummary{s}}})
	s.Status = ahpwire.StatusInputNeeded
	nm, cmd := m.Update(inboxUpdateMsg{h: InboxHost{Name: "h", State: "connected", Sessions: []ahpwire.SessionSummary{s}}})
	if got := rawMsgs(cmd); len(got) != 1 || got[0] != "\a" {
		t.Fatalf("bell: %q", got)
	}
	_, cmd = nm.(Inbox).Update(inboxUpdateMsg{h: InboxHost{Name: "h", State: "connected", Sessions: []ahpwire.SessionSummary{s}}})
	if got := rawMsgs(cmd); len(got) != 0 {
		t.Fatalf("rang twice: %q", got)
	}
}

// TestBackToInbox: with Options.BackToInbox, "back to the sessions" ends
// the program and WantsInbox says why.
func TestBackToInbox(t *testing.T) {
	m := New(Options{Backend: &fakeBackend{}, Dark: true, BackToInbox: true})
	nm, cmd := m.Update(backToPickerMsg{})
	if !nm.(Model).WantsInbox() || cmd == nil || cmd() != tea.Quit() {
		t.Fatal("back to the sessions did not end the program for the inbox")
	}
	plain := New(Options{Backend: &fakeBackend{}, Dark: true})
	if nm, _ := plain.Update(backToPickerMsg{}); nm.(Model).WantsInbox() {
		t.Fatal("WantsInbox without BackToInbox")
	}
}
