package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/tui/dialog"
)

// TestLiveF7OpensTheRunningTerminal: with an ended terminal listed before a
// running one (`/demo shell`, then `/demo repl`, whose block says F7
// claims it), F7 opens the running one. It opened the first the host
// lists, the ended one; a durable host lists every terminal it ever ran, so
// that was an old one of another session.
func TestLiveF7OpensTheRunningTerminal(t *testing.T) {
	r := openLiveChat(t)
	r.m = typeText(t, r.m, "/demo shell")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the shell ends", func(m Model) bool { return strings.Contains(viewText(m), "exit 1") && m.chat.State.Current == nil })
	r.m = typeText(t, r.m, "/demo repl")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("the repl runs", func(m Model) bool {
		return strings.Contains(viewText(m), "demo:~/project$") && len(m.c.Channels.RootTerminals()) == 2
	})
	r.m = send(t, r.m, f7())
	if _, ok := r.m.overlays[len(r.m.overlays)-1].(*dialog.TermViewer); !ok {
		t.Fatalf("no terminal viewer:\n%s", viewText(r.m))
	}
	r.pump("the viewer shows a terminal", func(m Model) bool {
		return strings.Contains(viewText(m), "running") || strings.Contains(viewText(m), "exit 1 ·")
	})
	if v := viewText(r.m); !strings.Contains(v, "demo-sh (interactive)  running") {
		t.Fatalf("F7 did not open the running terminal:\n%s", v)
	}
}
