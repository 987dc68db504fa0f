package tui

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestEmptySearchShowsItsPlaceholder: an empty query shows the whole
// placeholder (not its first letter) and no "no matches".
func TestEmptySearchShowsItsPlaceholder(t *testing.T) {
	for _, w := range []int{80, 120} {
		m, _ := newTestModel(t, w, 24)
		m = openChat(t, m, chatState([]ahpwire.Turn{finishedTurn("t1", "hello", "Hi!")}, nil))
		m = send(t, m, keyPress("ctrl+f"))
		v := viewText(m)
		if !strings.Contains(v, "search › text in the whole chat") || strings.Contains(v, "no matches") {
			t.Fatalf("%d columns:\n%s", w, v)
		}
	}
}
