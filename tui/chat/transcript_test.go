package chat

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// fakeItems renders item i as sizes[i] lines "i.l" and counts renders.
type fakeItems struct {
	sizes   []int
	renders map[int]int
}

func (f *fakeItems) render(i, width int) renderedItem {
	f.renders[i]++
	var r renderedItem
	for l := range f.sizes[i] {
		r.lines = append(r.lines, fmt.Sprintf("%d.%d", i, l))
	}
	if f.sizes[i] > 0 {
		r.spans = []blockSpan{{ID: fmt.Sprintf("b%d", i), Start: 0, End: f.sizes[i], Expandable: true}}
	}
	return r
}

func newFakeTranscript(n, lines, w, h int) (*Transcript, *fakeItems) {
	f := &fakeItems{renders: map[int]int{}}
	for range n {
		f.sizes = append(f.sizes, lines)
	}
	t := newTranscript(f.render, lipgloss.NewStyle())
	tr := &t
	tr.SetSize(w, h)
	tr.sync(n, func(i int) any { return i + 1 })
	return tr, f
}

func viewLines(t *Transcript) []string { return strings.Split(t.View(), "\n") }

func TestTranscriptFollowsAndRendersOnlyVisible(t *testing.T) {
	tr, f := newFakeTranscript(10000, 3, 40, 10)
	lines := viewLines(tr)
	if len(lines) != 10 {
		t.Fatalf("got %d lines, want 10", len(lines))
	}
	if got := strings.TrimSpace(lines[9]); got != "9999.2" {
		t.Fatalf("last line %q, want 9999.2", got)
	}
	if len(f.renders) > 5 {
		t.Fatalf("rendered %d items for a 10-line window", len(f.renders))
	}
}

func TestTranscriptScrollMarkerAndBottom(t *testing.T) {
	tr, f := newFakeTranscript(100, 3, 40, 10)
	tr.ScrollUp(5)
	if tr.Following() {
		t.Fatal("still following after scrolling up")
	}
	if got := strings.TrimSpace(viewLines(tr)[9]); got != "98.0" {
		t.Fatalf("last visible line %q, want 98.0", got)
	}
	// New output while scrolled up: the window stays, a marker appears.
	f.sizes = append(f.sizes, 3)
	tr.sync(101, func(i int) any { return i + 1 })
	lines := viewLines(tr)
	if !strings.Contains(lines[9], "new output below") {
		t.Fatalf("no marker: %q", lines[9])
	}
	if got := strings.TrimSpace(lines[0]); got != "95.0" {
		t.Fatalf("window moved: first line %q", got)
	}
	tr.GotoBottom()
	lines = viewLines(tr)
	if got := strings.TrimSpace(lines[9]); got != "100.2" || strings.Contains(tr.View(), "new output") {
		t.Fatalf("bottom: last line %q", got)
	}
}

func TestTranscriptScrollDownToEndFollows(t *testing.T) {
	tr, _ := newFakeTranscript(20, 3, 40, 10)
	tr.ScrollUp(7)
	tr.ScrollDown(3)
	if tr.Following() {
		t.Fatal("following too early")
	}
	tr.ScrollDown(4)
	if !tr.Following() {
		t.Fatal("not following at the end")
	}
}

func TestTranscriptTopAndShortContent(t *testing.T) {
	tr, _ := newFakeTranscript(3, 2, 40, 10)
	lines := viewLines(tr)
	if strings.TrimSpace(lines[0]) != "0.0" || strings.TrimSpace(lines[5]) != "2.1" || lines[6] != "" {
		t.Fatalf("short content misplaced: %q", lines)
	}
	if !tr.AtTop() {
		t.Fatal("short content must be at top")
	}
	tr2, _ := newFakeTranscript(50, 3, 40, 10)
	tr2.GotoTop()
	if !tr2.AtTop() || strings.TrimSpace(viewLines(tr2)[0]) != "0.0" {
		t.Fatal("GotoTop did not show the first line")
	}
	tr2.ScrollUp(3)
	if strings.TrimSpace(viewLines(tr2)[0]) != "0.0" {
		t.Fatal("scrolled above the first line")
	}
}

func TestTranscriptResizeRerendersVisibleOnly(t *testing.T) {
	tr, f := newFakeTranscript(1000, 3, 40, 10)
	before := len(f.renders)
	tr.SetSize(60, 10)
	total := 0
	for _, n := range f.renders {
		total += n
	}
	if total > 2*before+2 {
		t.Fatalf("resize rendered %d times (visible items %d)", total, before)
	}
}

func TestTranscriptBlockFocus(t *testing.T) {
	tr, f := newFakeTranscript(50, 3, 40, 10)
	tr.focus = true
	if !tr.FocusNext(-1) {
		t.Fatal("no block focused")
	}
	if sp := tr.FocusedSpan(); sp == nil || sp.ID != "b49" {
		t.Fatalf("focused %+v, want b49", sp)
	}
	for range 10 {
		tr.FocusNext(-1)
	}
	if sp := tr.FocusedSpan(); sp.ID != "b39" {
		t.Fatalf("focused %s, want b39", sp.ID)
	}
	// The focused block is visible and was re-rendered (to be marked).
	if !strings.Contains(tr.View(), "39.0") {
		t.Fatalf("focused block not visible:\n%s", tr.View())
	}
	if f.renders[39] < 2 {
		t.Fatalf("focused item not re-rendered (%d renders)", f.renders[39])
	}
	tr.FocusNext(+1)
	if tr.FocusedSpan().ID != "b40" {
		t.Fatal("FocusNext(+1) did not move forward")
	}
}

func TestTranscriptSnapshotReplacesItems(t *testing.T) {
	tr, f := newFakeTranscript(10, 3, 40, 10)
	f.sizes = []int{1, 1}
	if !tr.sync(2, func(i int) any { return fmt.Sprintf("new%d", i) }) {
		t.Fatal("sync reported no change")
	}
	lines := viewLines(tr)
	if strings.TrimSpace(lines[0]) != "0.0" || strings.TrimSpace(lines[1]) != "1.0" || lines[2] != "" {
		t.Fatalf("after snapshot: %q", lines[:3])
	}
}

func TestTranscriptPrependKeepsWindow(t *testing.T) {
	tr, f := newFakeTranscript(10, 3, 40, 6)
	tr.GotoTop()
	first := strings.TrimSpace(viewLines(tr)[0])
	// Five older items arrive in front; identities of the old ones are kept.
	f.sizes = append([]int{3, 3, 3, 3, 3}, f.sizes...)
	tr.sync(15, func(i int) any {
		if i < 5 {
			return fmt.Sprintf("old%d", i)
		}
		return i - 5 + 1
	})
	if got := strings.TrimSpace(viewLines(tr)[0]); got != first || tr.TopItem != 5 {
		t.Fatalf("window moved after prepend: first line %q (was %q)", got, first)
	}
	if strings.Contains(tr.View(), "new output below") {
		t.Fatal("older history is not new output")
	}
	tr.ScrollUp(3)
	if got := strings.TrimSpace(viewLines(tr)[0]); got != "4.0" {
		t.Fatalf("cannot scroll into prepended items: %q", got)
	}
}

// TestTranscriptHoldsBoundedLines scrolls through a transcript whose
// rendered lines add up to several times maxHeldBytes: what it holds
// stays bounded, and items scrolled back into view render again.
func TestTranscriptHoldsBoundedLines(t *testing.T) {
	const n, per = 400, 100 // 400 items of 100 lines of ~1 KB: ~40 MB
	f := &fakeItems{renders: map[int]int{}}
	for range n {
		f.sizes = append(f.sizes, per)
	}
	wide := func(i, width int) renderedItem {
		r := f.render(i, width)
		for k := range r.lines {
			r.lines[k] += strings.Repeat(".", 1000)
		}
		return r
	}
	tr := newTranscript(wide, lipgloss.NewStyle())
	tr.SetSize(40, 10)
	tr.sync(n, func(i int) any { return i + 1 })
	tr.GotoTop()
	for range n * per / 10 {
		tr.ScrollDown(10)
		if tr.Held > maxHeldBytes+2*per*1100 {
			t.Fatalf("holds %d bytes (bound %d)", tr.Held, maxHeldBytes)
		}
	}
	sum := 0
	for i := range tr.Items {
		sum += tr.Items[i].bytes
	}
	if sum != tr.Held {
		t.Fatalf("held %d, items add up to %d", tr.Held, sum)
	}
	tr.GotoTop()
	if got := strings.TrimRight(viewLines(&tr)[0], "."); got != "0.0" || f.renders[0] < 2 {
		t.Fatalf("top after trimming: %q (%d renders)", got, f.renders[0])
	}
}
