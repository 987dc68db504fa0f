package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/app"
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
	for i := 0; i < 4 && r.m.chat.FocusedTerminal() == ""; i++ {
		r.m = send(t, r.m, tea.KeyPressMsg{Code: '[', Text: "["})
	}
	if r.m.chat.FocusedTerminal() != uri {
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
	r.pump("turn done", func(m Model) bool { return m.chat.State.Current == nil })
}

// /demo repl against the real host: the terminal the user types into takes
// the viewer's width (136 columns at 140×40, 76 at 80×24), so a long line
// wraps where the viewer ends and nothing of it is cut; the viewer never
// tells the user to claim a terminal they are typing into.
func TestLiveDemoReplUsesViewerWidth(t *testing.T) {
	r := openLiveChat(t)
	r.m = send(t, r.m, teaSize(140, 41))
	r.m = typeText(t, r.m, "/demo repl")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("shell prompt", func(m Model) bool { return strings.Contains(viewText(m), "Demo shell") && terminalOnScreen(m) != "" })
	r.m = send(t, r.m, app.OpenTerminalMsg{URI: terminalOnScreen(r.m)})
	r.pump("claimed", func(m Model) bool { return strings.Contains(viewText(m), "TYPING") })
	if v := viewText(r.m); strings.Contains(v, "Claim this") || strings.Contains(v, "type into it ·") {
		t.Fatalf("the viewer says to claim the terminal being typed into:\n%s", v)
	}
	long := strings.Repeat("0123456789", 12) + "END" // 123 columns: more than the host's 100
	r.m = typeText(t, r.m, "echo "+long)
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("answer on one line", func(m Model) bool { return strings.Contains(viewText(m), "│ "+long) })
	r.m = send(t, r.m, teaSize(80, 25))
	r.m = typeText(t, r.m, "echo x"+long)
	r.m = send(t, r.m, keyPress("enter"))
	// The answer wraps at 76 columns: both halves are on screen, each whole.
	head, tail := ("x" + long)[:76], ("x" + long)[76:]
	r.pump("answer wrapped", func(m Model) bool {
		v := viewText(m)
		return strings.Contains(v, "│ "+head+" │") && strings.Contains(v, "│ "+tail+" ")
	})
	r.m = typeText(t, r.m, "exit")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("turn done", func(m Model) bool { return m.chat.State.Current == nil })
}
