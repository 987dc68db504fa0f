package tui

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

func rawOf(t *testing.T, n *notifier, session, title string, before, after ahpwire.SessionStatus, here bool) string {
	t.Helper()
	cmd := n.onStatus(session, title, before, after, here)
	if cmd == nil {
		return ""
	}
	raw, ok := cmd().(tea.RawMsg)
	if !ok {
		t.Fatalf("not a raw message: %T", cmd())
	}
	s, _ := raw.Msg.(string)
	return s
}

func TestNotifierTransitions(t *testing.T) {
	n := newNotifier(&NotifyOptions{Bell: true, Desktop: "osc9"})
	busy, ask, idle := ahpwire.StatusInProgress, ahpwire.StatusInputNeeded, ahpwire.StatusIdle
	if got := rawOf(t, n, "s1", "Fix\x1b]0;evil\a bug", busy, ask, false); got != "\a\x1b]9;Fix bug needs you\a" {
		t.Fatalf("needs input: %q", got)
	}
	if got := rawOf(t, n, "s1", "x", busy, ask, false); got != "" {
		t.Fatalf("second needs-input for the same occurrence: %q", got)
	}
	if got := rawOf(t, n, "s1", "x", ask, idle, false); !strings.Contains(got, "finished") {
		t.Fatalf("turn end: %q", got)
	}
	if got := rawOf(t, n, "s2", "y", busy, idle, true); got != "" {
		t.Fatalf("notified for the session on screen: %q", got)
	}
	n.focused = false
	if got := rawOf(t, n, "s2", "y", busy, ahpwire.StatusError, true); !strings.Contains(got, "failed") {
		t.Fatalf("error while unfocused: %q", got)
	}
	if got := rawOf(t, n, "s3", "z", idle, busy, false); got != "" {
		t.Fatalf("a turn start notified: %q", got)
	}
}

func TestNotifierFormats(t *testing.T) {
	cases := map[string]NotifyOptions{
		"\x1b]777;notify;ahptui;t finished\a":     {Desktop: "osc777"},
		"\x1b]99;;t finished\x1b\\":               {Desktop: "osc99"},
		"\x1bPtmux;\x1b\x1b]9;t finished\a\x1b\\": {Desktop: "osc9", InTmux: true},
		"\a": {Bell: true, Desktop: "off"},
		"\a\x1bPtmux;\x1b\x1b]99;;t finished\x1b\x1b\\\x1b\\": {Bell: true, Desktop: "osc99", InTmux: true},
	}
	for want, o := range cases {
		n := newNotifier(&o)
		if got := rawOf(t, n, "s", "t", ahpwire.StatusInProgress, ahpwire.StatusIdle, false); got != want {
			t.Errorf("%+v: %q, want %q", o, got, want)
		}
	}
	if n := newNotifier(&NotifyOptions{Desktop: "off"}); n.enabled() {
		t.Error("nothing configured but enabled")
	}
	if n := newNotifier(&NotifyOptions{Bell: true, Events: []string{NotifyError}}); rawOf(t, n, "s", "t", ahpwire.StatusInProgress, ahpwire.StatusIdle, false) != "" {
		t.Error("an event not in Events notified")
	}
	if r := []rune(notifyText(NotifyTurnEnd, strings.Repeat("é", 500))); len(r) > 100 {
		t.Errorf("text not capped: %d runes", len(r))
	}
}

// rawMsgs runs cmd (expanding batches) and returns the raw sequences.
func rawMsgs(cmd tea.Cmd) []string {
	if cmd == nil {
		return nil
	}
	msg, ok := runWithin(cmd, 200*time.Millisecond)
	if !ok {
		return nil
	}
	switch msg := msg.(type) {
	case tea.BatchMsg:
		var out []string
		for _, c := range msg {
			out = append(out, rawMsgs(c)...)
		}
		return out
	case tea.RawMsg:
		s, _ := msg.Msg.(string)
		return []string{s}
	}
	return nil
}

// TestModelNotifiesForOtherSessions: a session summary change to "needs
// input" for a session the user is not looking at rings once; focus
// reporting is on only with notifications.
func TestModelNotifiesForOtherSessions(t *testing.T) {
	fb := &fakeBackend{}
	m := newModel(Options{Backend: fb, Dark: true, Notify: &NotifyOptions{Bell: true, Desktop: "osc777"}})
	if !m.View().ReportFocus {
		t.Fatal("focus reporting off with notifications on")
	}
	if plain := newModel(Options{Backend: fb, Dark: true}); plain.View().ReportFocus {
		t.Fatal("focus reporting on without notifications")
	}
	s := ahpwire.SessionSummary{Resource: "ahp-session:/a", Title: "Refactor", Status: ahpwire.StatusInProgress}
	nm, _ := m.Update(connEventMsg{ev: ahpclient.SessionsEvent{Result: ahpwire.ListSessionsResult{Items: []ahpwire.SessionSummary{s}}}})
	m = nm.(Model)
	change := func(st ahpwire.SessionStatus) []string {
		p, _ := json.Marshal(ahpwire.SessionSummaryChangedParams{Channel: "ahp-root://", Session: s.Resource,
			Changes: ahpwire.PartialSessionSummary{Status: &st}})
		nm, cmd := m.Update(connEventMsg{ev: ahpclient.NotificationEvent{Method: "root/sessionSummaryChanged", Params: p}})
		m = nm.(Model)
		return rawMsgs(cmd)
	}
	got := change(ahpwire.StatusInputNeeded)
	if len(got) != 1 || got[0] != "\a\x1b]777;notify;ahptui;Refactor needs you\a" {
		t.Fatalf("needs input: %q", got)
	}
	if got := change(ahpwire.StatusInputNeeded); len(got) != 0 {
		t.Fatalf("repeated: %q", got)
	}
}
