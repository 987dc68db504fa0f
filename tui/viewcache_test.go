package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// The composer's reused drawing always equals a fresh one: typing,
// pasting, moving the cursor, focus changes, resizes and a text set from
// outside (history, completions) all draw anew.
func TestComposerViewReuseMatchesFresh(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, nil))
	check := func(what string) {
		t.Helper()
		if got, want := m.chat.Composer.View(), m.chat.Composer.Ta.View(); got != want {
			t.Fatalf("%s: reused composer drawing differs:\n%q\n--- fresh:\n%q", what, got, want)
		}
		if got := m.chat.Composer.View(); got != m.chat.Composer.Ta.View() {
			t.Fatalf("%s: second View differs", what)
		}
	}
	check("empty (placeholder)")
	m = typeText(t, m, "hello world")
	check("typed")
	m = send(t, m, tea.KeyPressMsg{Code: tea.KeyLeft})
	check("cursor moved")
	m = send(t, m, tea.PasteMsg{Content: "pasted\ntext"})
	check("pasted")
	m = send(t, m, teaSize(60, 20))
	check("resized")
	m = send(t, m, keyPress("tab"))
	check("blurred")
	m = send(t, m, keyPress("tab"))
	check("focused")
	m.chat.Composer.Ta.SetValue("set from outside")
	check("set from outside")
	m.chat.Composer.Ta.Placeholder = "another placeholder"
	m.chat.Composer.Ta.Reset()
	check("placeholder changed")
	m = send(t, m, envelope(3, &ahpwire.ChatTurnStarted{TurnID: "t9", Message: ahpwire.UserMessage("hi")}))
	check("host event")
}

// The status line's reused drawing equals a fresh one through notices,
// resizes, a theme change and a connection that drops.
func TestStatusLineReuseMatchesFresh(t *testing.T) {
	m, _ := newTestModel(t, 80, 24)
	m = openChat(t, m, chatState(nil, nil))
	check := func(what string) {
		t.Helper()
		s := m.statusInfo()
		if got, want := m.statusLine(s), renderStatus(&m.c.Styles, s, m.width); got != want {
			t.Fatalf("%s: reused status line differs:\n%q\n--- fresh:\n%q", what, got, want)
		}
	}
	m = send(t, m, connEventMsg{ev: ahpclient.ConnStateEvent{State: ahpclient.ConnState{Phase: ahpclient.Connected, ProtocolVersion: "0.9"}}})
	check("connected")
	check("again")
	m.notice = "a notice"
	check("notice")
	m = send(t, m, teaSize(100, 30))
	check("resized")
	m.setTheme(false)
	check("light theme")
	m.conn.Phase = ahpclient.Idle
	check("idle")
}
