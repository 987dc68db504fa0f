package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/uikit"
)

func TestQueueListEditsRemovesAndReorders(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	items := []reducer.PendingMessage{{ID: "q1", Text: "first"}, {ID: "q2", Text: "second"}, {ID: "q3", Text: "third"}}
	q := chat.QueueList{KM: km.Queue, Open: true}
	q.Update(keyPress("down"), items, nil)
	in := q.Update(tea.KeyPressMsg{Code: tea.KeyUp, Mod: tea.ModShift}, items, nil)
	ro, ok := in.Action.(*ahpwire.ChatQueuedMessagesReordered)
	if !ok || strings.Join(ro.Order, ",") != "q2,q1,q3" || q.Sel != 0 {
		t.Fatalf("reorder %+v sel %d", in.Action, q.Sel)
	}
	view := ansi.Strip(strings.Join(q.View(&st, items, nil, 80), "\n"))
	if !strings.Contains(view, "▸ 1. first") || !strings.Contains(view, "remove") {
		t.Fatalf("view %q", view)
	}
	in = q.Update(keyPress("x"), items, nil)
	if rm, ok := in.Action.(*ahpwire.ChatPendingMessageRemoved); !ok || rm.ID != "q1" || rm.Kind != ahpwire.PendingQueued {
		t.Fatalf("remove %+v", in.Action)
	}
	q.Update(keyPress("down"), items, nil)
	in = q.Update(keyPress("enter"), items, nil)
	if in.Edit == nil || in.Edit.ID != "q2" || q.Open {
		t.Fatalf("edit %+v open %v", in.Edit, q.Open)
	}
	if v := q.View(&st, items, nil, 80); v != nil {
		t.Fatal("closed list still drawn")
	}
	q.Open = true
	if in := q.Update(keyPress("esc"), items, nil); !in.Close || q.Open {
		t.Fatal("esc did not close")
	}
}

func TestBackgroundWorkListAndOpen(t *testing.T) {
	km := keymap.Default()
	st := uikit.NewStyles(render.StylesFor(true))
	ws := []ahpwire.BackgroundWork{{Kind: "shell", ID: "s", Label: "tests\x1b[31m", Command: "go test"},
		{Kind: "subagent", ID: "a", Label: "survey", Chat: "ahp-chat:/child"}}
	if s := chat.BackgroundSummary(ws); s != "⚙ 2 running: tests (shell) · survey (subagent)" {
		t.Fatalf("summary %q", s)
	}
	if chat.BackgroundSummary(nil) != "" {
		t.Fatal("summary of nothing")
	}
	l := chat.BackgroundList{KM: km.Background, Open: true}
	if chat := l.Update(keyPress("enter"), ws); chat != "" {
		t.Fatal("enter on a shell opened something")
	}
	l.Update(keyPress("down"), ws)
	if view := ansi.Strip(strings.Join(l.View(&st, ws, 100), "\n")); !strings.Contains(view, "▸ survey (subagent)") {
		t.Fatalf("view %q", view)
	}
	if chat := l.Update(keyPress("enter"), ws); chat != "ahp-chat:/child" || l.Open {
		t.Fatalf("open %q", chat)
	}
}
