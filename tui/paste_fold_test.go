package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

func bigPaste(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "pasted line %d\n", i)
	}
	return b.String()
}

// TestBigPasteIsFoldedInTheTranscript: a 5,000-line message shows as
// "[pasted 5,000 lines]" (its trailing newline is not a line) and expands.
func TestBigPasteIsFoldedInTheTranscript(t *testing.T) {
	t.Parallel() // pure and CPU-heavy: no socket, no goroutine count
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		m, _ := newTestModel(t, size[0], size[1])
		m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", bigPaste(5000), "Got it.")}, nil))
		m = send(t, m, keyPress("home")) // the top of the chat
		m = send(t, m, keyPress("tab"))
		m = send(t, m, keyPress("g"))
		v := viewText(m)
		if !strings.Contains(v, "[pasted 5,000 lines]") || !strings.Contains(v, "pasted line 4") || strings.Contains(v, "pasted line 5\n") {
			t.Fatalf("%v: folded view:\n%s", size, v)
		}
		m = send(t, m, keyPress("]"))
		m = send(t, m, keyPress("enter"))
		v = viewText(m)
		if strings.Contains(v, "[pasted 5,000 lines]") || !strings.Contains(v, "pasted line 1\n") || !strings.Contains(v, "pasted line 9") {
			t.Fatalf("%v: expanded view:\n%s", size, v)
		}
	}
}

func TestPasteChipCountsLinesLikePeople(t *testing.T) {
	m, _ := idleChat(t)
	m = send(t, m, tea.PasteMsg{Content: bigPaste(5000)})
	if v := m.chat.Composer.Value(); !strings.Contains(v, ": 5000 lines,") {
		t.Fatalf("chip %q", v)
	}
	if render.LineCount("a\nb") != 2 || render.LineCount("a\nb\n") != 2 || render.LineCount("") != 0 {
		t.Fatal("LineCount")
	}
}
