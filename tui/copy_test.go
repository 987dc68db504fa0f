package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
)

// longCodeReply is a reply whose two code blocks are far apart: a window
// of 30 rows shows one of them at a time.
func longCodeReply() string {
	var b strings.Builder
	b.WriteString("First:\n\n```go\nfunc first() {\n\treturn\n}\n```\n\n")
	for i := 0; i < 40; i++ {
		b.WriteString("A paragraph of prose between the two code blocks, long enough to fill the window.\n\n")
	}
	b.WriteString("Second:\n\n```make\ntest:\n\tgo test ./...\n```\n\nThe end.\n")
	return b.String()
}

// TestCopyCodeUnderCursor: Y copies the code block the window shows in
// the focused reply, not the reply's first: at the bottom the second, at
// the top the first (and Y again, with nothing moved, the next one); with
// no block focused, the code block on screen.
func TestCopyCodeUnderCursor(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", longCodeReply())}, nil))
	m = send(t, m, keyPress("tab"))
	if _, s := clip(t, m, keyPress("Y")); s != "test:\n\tgo test ./..." {
		t.Fatalf("with no block focused, Y copied %q (want the block on screen)", s)
	}
	m = send(t, m, keyPress("[")) // the reply (its first line revealed)
	m = send(t, m, keyPress("G")) // the bottom: the second block on screen
	m, s := clip(t, m, keyPress("Y"))
	if s != "test:\n\tgo test ./..." {
		t.Fatalf("at the bottom, Y copied %q (want the second block, on screen)", s)
	}
	m = send(t, m, keyPress("g")) // the top: the first block on screen
	m, s = clip(t, m, keyPress("Y"))
	if s != "func first() {\n\treturn\n}" {
		t.Fatalf("at the top, Y copied %q (want the first block, on screen):\n%s", s, viewText(m))
	}
	if _, s = clip(t, m, keyPress("Y")); s != "test:\n\tgo test ./..." {
		t.Fatalf("Y again copied %q (want the next block)", s)
	}
}

// TestCopyPickList: /copy lists the last reply's code blocks (language,
// first line, line count) and the whole reply; ↓ and enter copy the
// second block byte for byte, esc closes the list without copying, and a
// reply without code is copied whole at once.
func TestCopyPickList(t *testing.T) {
	m, _ := newTestModel(t, 100, 30)
	m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", longCodeReply())}, nil))
	m = send(t, m, chat.ClientCommandMsg{Name: "/copy"})
	v := viewText(m)
	for _, want := range []string{"Copy from the last reply", "1  go · func first() { · 3 lines", "2  make · test: · 2 lines", "the whole reply (markdown)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the list lacks %q:\n%s", want, v)
		}
	}
	m, s := clip(t, m, keyPress("down"))
	if s != "" {
		t.Fatalf("moving copied %q", s)
	}
	m, s = pickCopy(t, m)
	if s != "test:\n\tgo test ./..." {
		t.Fatalf("enter copied %q", s)
	}
	if strings.Contains(viewText(m), "Copy from the last reply") {
		t.Fatal("the list stayed open after copying")
	}
	m = send(t, m, chat.ClientCommandMsg{Name: "/copy"})
	m = send(t, m, keyPress("up")) // wraps to the whole reply
	m, s = pickCopy(t, m)
	if !strings.Contains(s, "## Agent") || !strings.Contains(s, "\tgo test ./...") {
		t.Fatalf("the whole reply: %q", s)
	}
	m = send(t, m, chat.ClientCommandMsg{Name: "/copy"})
	m, s = clip(t, m, keyPress("esc"))
	if s != "" || len(m.overlays) != 0 {
		t.Fatalf("esc copied %q or left %d overlays", s, len(m.overlays))
	}

	m2, _ := newTestModel(t, 100, 30)
	m2 = openChat(t, m2, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "No code here.")}, nil))
	if _, s := clip(t, m2, chat.ClientCommandMsg{Name: "/copy"}); !strings.Contains(s, "No code here.") {
		t.Fatalf("/copy of a reply without code copied %q", s)
	}
}

// pickCopy presses enter in /copy's list and returns what reached the
// clipboard once the root had the choice.
func pickCopy(t *testing.T, m Model) (Model, string) {
	t.Helper()
	nm, cmd := m.Update(keyPress("enter"))
	m = nm.(Model)
	for _, msg := range flatten(cmd) {
		if c, ok := msg.(dialog.CopyChosenMsg); ok {
			return clip(t, m, c)
		}
	}
	return m, ""
}
