package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// /demo repl against the real embedded host: Enter on the terminal block
// claims the demo shell's terminal, typed keys reach it as terminal/input
// and its answers come back on screen; `exit` ends the turn.
func TestLiveDemoReplTyping(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo repl")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("shell prompt", func(m Model) bool { return strings.Contains(viewText(m), "Demo shell") && terminalOnScreen(m) != "" })
	uri := terminalOnScreen(r.m)
	r.m = send(t, r.m, keyPress("tab"))
	for i := 0; i < 4 && r.m.chat.focusedTerminal() == ""; i++ {
		r.m = send(t, r.m, tea.KeyPressMsg{Code: '[', Text: "["})
	}
	if r.m.chat.focusedTerminal() != uri {
		t.Fatalf("could not focus the terminal's tool block:\n%s", viewText(r.m))
	}
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("claimed", func(m Model) bool {
		return strings.Contains(viewText(m), "TYPING") && !strings.Contains(viewText(m), "claiming…")
	})
	r.m = typeText(t, r.m, "echo hello from the tui")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("answer", func(m Model) bool { return strings.Count(viewText(m), "hello from the tui") >= 2 })
	r.m = typeText(t, r.m, "exit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("turn done", func(m Model) bool { return m.chat.state.Current == nil })
}
