package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/ahptui/ahptui/render"
)

// blockSpan locates one focusable block inside an item's rendered lines:
// from line Start of section StartSec to before line End of section
// EndSec (sections: see renderedItem; an item without them is section 0).
type blockSpan struct {
	ID               string // block id (stable across renders)
	Start, End       int    // line range [Start, End)
	StartSec, EndSec int
	Expandable       bool // thinking, tool or error block: enter toggles it
}

// renderedItem is the cached output of rendering one transcript item:
// its lines, or, for a message holding a long text, its sections (pages
// of the long text are laid out only when shown, through the renderer's
// page cache, and never held here).
type renderedItem struct {
	lines []string
	secs  []render.Section
	spans []blockSpan
}

// nsecs is the number of sections of the item.
func (r *renderedItem) nsecs() int {
	if r.secs == nil {
		return 1
	}
	return len(r.secs)
}

// sec returns the lines of section s (laying a page out if needed).
func (r *renderedItem) sec(s int) []string {
	switch {
	case r.secs == nil:
		return r.lines
	case s >= len(r.secs):
		return nil
	case r.secs[s].Page != nil:
		return r.secs[s].Page.Lines()
	}
	return r.secs[s].Lines
}

// secLen is the number of lines of section s, estimated for a page not
// laid out yet (render.Page.LineCount): it lays nothing out.
func (r *renderedItem) secLen(s int) int {
	if r.secs != nil && s < len(r.secs) && r.secs[s].Page != nil {
		return r.secs[s].Page.LineCount()
	}
	return len(r.sec(s))
}

// itemRenderer renders item i at the given content width.
type itemRenderer func(i, width int) renderedItem

// tItem is one transcript entry (a message) and its cached lines.
type tItem struct {
	src   any // identity of the source (an immutable *Message); a new value invalidates
	r     renderedItem
	stamp int // layout stamp the cache was rendered with; 0 = never
	bytes int // memory of r's laid-out lines (see heldBytes)
}

// maxHeldBytes bounds the laid-out lines the transcript keeps: past it,
// the items farthest from the window are dropped (and rendered again, from
// the renderer's cache, if they come back into view).
const maxHeldBytes = 8 << 20

// heldBytes is the memory of an item's laid-out lines (pages of long texts
// are not held: they live in the renderer's page cache).
func heldBytes(r *renderedItem) int {
	n := linesMem(r.lines)
	for _, s := range r.secs {
		n += linesMem(s.Lines)
	}
	return n
}

func linesMem(lines []string) int {
	n := 16 * len(lines)
	for _, l := range lines {
		n += len(l)
	}
	return n
}

// transcript is a virtualised viewport over a list of items. It renders
// (through render) only the items it needs for the visible window, caches
// their lines, and composes a frame from at most height lines. It never
// joins or sets the whole transcript. Scroll position is an anchor
// (item, section, line) so that items above the window never need to be
// rendered, nor the pages of a long text above or below it laid out: no
// walk goes further than the window and a margin.
//
// Rendering happens in layout(), called from Update; View only reads.
type transcript struct {
	items         []tItem
	render        itemRenderer
	width, height int
	stamp         int // bumped on width or global view-option changes
	held          int // sum of the items' bytes

	follow                   bool // stick to the bottom
	topItem, topSec, topLine int  // first visible line when !follow
	unseen                   bool // output arrived while scrolled up
	atTop                    bool // the window starts at the first loaded line

	focus    bool // the pane has keyboard focus (the renderer marks the focused block)
	fItem    int  // focused block's item (-1 = none)
	fBlockID string

	markerText string
	markerSty  lipgloss.Style
}

func newTranscript(render itemRenderer, marker lipgloss.Style) transcript {
	return transcript{
		render: render, follow: true, stamp: 1, fItem: -1,
		markerText: " ↓ new output below (end to follow) ", markerSty: marker,
	}
}

// contentWidth is the width items are rendered at.
func (t *transcript) contentWidth() int { return max(1, t.width) }

// SetSize changes the viewport size; a width change re-renders lazily.
// Scrolled up, the window keeps its place in the top section (a page of a
// long text is some hundred lines): the anchor moves in proportion to the
// section's new length.
func (t *transcript) SetSize(w, h int) {
	if w != t.width {
		top, n0 := t.top(), 0
		if !t.follow && top.item < len(t.items) && t.items[top.item].stamp == t.stamp {
			n0 = len(t.items[top.item].r.sec(top.sec))
		}
		t.stamp++
		if n0 > 0 && w > 0 {
			t.width = w
			if top.sec < t.ensure(top.item).nsecs() {
				t.topLine = top.line * len(t.secLines(top.item, top.sec)) / n0
			}
		}
	}
	t.width, t.height = w, max(1, h)
	t.layout()
}

// invalidateAll forces every item to re-render when next visible (global
// view option change such as the thinking view).
func (t *transcript) invalidateAll() { t.stamp++; t.layout() }

// invalidate forces item i to re-render.
func (t *transcript) invalidate(i int) {
	if i >= 0 && i < len(t.items) {
		t.items[i].stamp = 0
	}
}

// sync brings the item list in line with the source: n items whose
// identities are given by src(i). Items are append-mostly, so it walks back
// from the end until it meets an unchanged identity; a full replacement
// (snapshot) costs one pass. It reports whether anything changed.
func (t *transcript) sync(n int, src func(i int) any) bool {
	changed, tail := false, false
	if k := n - len(t.items); k > 0 && len(t.items) > 0 && src(0) != t.items[0].src && src(k) == t.items[0].src {
		// Older items were prepended (history paging): shift everything.
		t.items = append(make([]tItem, k, n), t.items...)
		for i := range k {
			t.items[i].src = src(i)
		}
		t.topItem += k
		if t.fItem >= 0 {
			t.fItem += k
		}
		changed = true
	}
	if n < len(t.items) {
		for i := n; i < len(t.items); i++ {
			t.held -= t.items[i].bytes
		}
		t.items = t.items[:n]
		changed, tail = true, true
	}
	for len(t.items) < n {
		t.items = append(t.items, tItem{})
		changed, tail = true, true
	}
	for i := n - 1; i >= 0; i-- {
		s := src(i)
		if t.items[i].src == s {
			break
		}
		t.held -= t.items[i].bytes
		t.items[i] = tItem{src: s}
		changed, tail = true, true
	}
	if t.fItem >= n {
		t.fItem = -1
	}
	if tail && !t.follow {
		t.unseen = true
	}
	if !t.follow && t.topItem >= n {
		t.follow = true
	}
	t.layout()
	return changed
}

// ensure renders item i if its cache is stale and returns its lines.
func (t *transcript) ensure(i int) *renderedItem {
	it := &t.items[i]
	if it.stamp != t.stamp {
		it.r = t.render(i, t.contentWidth())
		it.stamp = t.stamp
		t.held -= it.bytes
		it.bytes = heldBytes(&it.r)
		t.held += it.bytes
	}
	return &it.r
}

// trim drops the rendered lines of the items farthest from the window
// while the transcript holds more than maxHeldBytes (down to half of it);
// the window and two items either side stay.
func (t *transcript) trim() {
	if t.held <= maxHeldBytes {
		return
	}
	first, last := t.visibleItems()
	lo, hi := 0, len(t.items)-1
	for t.held > maxHeldBytes/2 && (lo < first-2 || hi > last+2) {
		if hi > last+2 && (hi-last >= first-lo || lo >= first-2) {
			t.drop(hi)
			hi--
		} else {
			t.drop(lo)
			lo++
		}
	}
}

func (t *transcript) drop(i int) {
	it := &t.items[i]
	t.held -= it.bytes
	it.r, it.bytes, it.stamp = renderedItem{}, 0, 0
}

func findSpan(spans []blockSpan, id string) *blockSpan {
	for i := range spans {
		if spans[i].ID == id {
			return &spans[i]
		}
	}
	return nil
}
