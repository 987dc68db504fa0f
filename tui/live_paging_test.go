package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/tui/picker"
)

// TestLiveExportPagesTheWholeChat: over a real client and host, export of
// a 300-turn chat opened in a window pages every older turn in and writes
// them all, in order. The test runs each fetchTurns command to completion
// before it pumps the client's events, so the call has returned while its
// page is still queued: the pager must act on the TurnsFetchedEvent that
// follows the page in the event stream (no settle timer; one would be
// dropped here and paging would stall).
func TestLiveExportPagesTheWholeChat(t *testing.T) {
	t.Chdir(t.TempDir())
	const n = 300
	r := openLongChat(t, n)
	r.m = send(t, r.m, keyPress("tab"))
	r.m = send(t, r.m, keyPress("e"))
	r.pump("the export", func(Model) bool {
		files, _ := filepath.Glob("ahptui-*.md")
		return len(files) == 1
	})
	files, _ := filepath.Glob("ahptui-*.md")
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	s, at := string(b), 0
	for i := range n {
		q := fmt.Sprintf("Question %d: ", i)
		j := strings.Index(s[at:], q)
		if j < 0 {
			t.Fatalf("turn %d missing from the export or out of order (%d bytes)", i, len(s))
		}
		at += j + len(q)
	}
}

// TestLiveSearchFindsHitsAcrossPages: over a real client and host, a
// search in a 300-turn chat opened in a window pages the older turns in
// (the end of each page arrives through the event stream after it) and
// finds, and jumps to, a hit that only the oldest page holds.
func TestLiveSearchFindsHitsAcrossPages(t *testing.T) {
	r := openLongChat(t, 300)
	r.m = send(t, r.m, keyPress("ctrl+f"))
	r.m = typeText(t, r.m, "question 0: how")
	r.pump("the search over every page", func(m Model) bool {
		s := m.chat.Extras.Search
		return !s.Paging && !s.Running && len(s.Hits) > 0
	})
	if n := len(r.m.chat.State.Messages); n < 600 {
		t.Fatalf("%d messages loaded, want all 300 turns", n)
	}
	v := viewText(r.m)
	if !strings.Contains(v, "Question 0: how") || !strings.Contains(v, "1/1") {
		t.Fatalf("the oldest turn's hit is not shown:\n%s", v)
	}
}

// openLongChat opens, over a real client and host, a chat of n synthetic
// turns of which only the newest window came with the subscription.
func openLongChat(t *testing.T, n int) *liveRig {
	t.Helper()
	r := newLiveRig(t, 0)
	if _, err := r.host.SeedSession("ahp-session:/long", ahphost.SyntheticTurns(n, 400)); err != nil {
		t.Fatal(err)
	}
	r.m = send(t, r.m, picker.OpenSessionMsg{Session: "ahp-session:/long"})
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat != nil && m.chat.Ready })
	if r.m.chat.Cursor == "" {
		t.Fatal("the whole chat came in the first window: nothing to page")
	}
	return r
}
