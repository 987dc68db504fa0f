package chat

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

// Transcript is a virtualised viewport over a list of items. It renders
// (through render) only the items it needs for the visible window, caches
// their lines, and composes a frame from at most height lines. It never
// joins or sets the whole transcript. Scroll position is an anchor
// (item, section, line) so that items above the window never need to be
// rendered, nor the pages of a long text above or below it laid out: no
// walk goes further than the window and a margin.
//
// Rendering happens in layout(), called from Update; View only reads.
type Transcript struct {
	Items         []tItem
	render        itemRenderer
	width, Height int
	stamp         int // bumped on width or global view-option changes
	Held          int // sum of the items' bytes

	follow                   bool // stick to the bottom
	TopItem, topSec, topLine int  // first visible line when !follow
	unseen                   bool // output arrived while scrolled up
	atTop                    bool // the window starts at the first loaded line

	focus        bool // the pane has keyboard focus (the renderer marks the focused block)
	fItem        int  // focused block's item (-1 = none)
	FocusBlockID string

	markerText string
	MarkerSty  lipgloss.Style
}

func newTranscript(render itemRenderer, marker lipgloss.Style) Transcript {
	return Transcript{
		render: render, follow: true, stamp: 1, fItem: -1,
		markerText: " ↓ new output below (end to follow) ", MarkerSty: marker,
	}
}

// contentWidth is the width items are rendered at.
func (t *Transcript) contentWidth() int { return max(1, t.width) }

// SetSize changes the viewport size; a width change re-renders lazily.
// Scrolled up, the window keeps its place in the top section (a page of a
// long text is some hundred lines): the anchor moves in proportion to the
// section's new length.
func (t *Transcript) SetSize(w, h int) {
	if w != t.width {
		top, n0 := t.top(), 0
		if !t.follow && top.item < len(t.Items) && t.Items[top.item].stamp == t.stamp {
			n0 = len(t.Items[top.item].r.sec(top.sec))
		}
		t.stamp++
		if n0 > 0 && w > 0 {
			t.width = w
			if top.sec < t.ensure(top.item).nsecs() {
				t.topLine = top.line * len(t.SecLines(top.item, top.sec)) / n0
			}
		}
	}
	t.width, t.Height = w, max(1, h)
	t.Layout()
}

// InvalidateAll forces every item to re-render when next visible (global
// view option change such as the thinking view).
func (t *Transcript) InvalidateAll() { t.stamp++; t.Layout() }

// Invalidate forces item i to re-render.
func (t *Transcript) Invalidate(i int) {
	if i >= 0 && i < len(t.Items) {
		t.Items[i].stamp = 0
	}
}

// sync brings the item list in line with the source: n items whose
// identities are given by src(i). Items are append-mostly, so it walks back
// from the end until it meets an unchanged identity; a full replacement
// (snapshot) costs one pass. It reports whether anything changed.
func (t *Transcript) sync(n int, src func(i int) any) bool {
	changed, tail := false, false
	if k := n - len(t.Items); k > 0 && len(t.Items) > 0 && src(0) != t.Items[0].src && src(k) == t.Items[0].src {
		// Older items were prepended (history paging): shift everything.
		t.Items = append(make([]tItem, k, n), t.Items...)
		for i := range k {
			t.Items[i].src = src(i)
		}
		t.TopItem += k
		if t.fItem >= 0 {
			t.fItem += k
		}
		changed = true
	}
	if n < len(t.Items) {
		for i := n; i < len(t.Items); i++ {
			t.Held -= t.Items[i].bytes
		}
		t.Items = t.Items[:n]
		changed, tail = true, true
	}
	for len(t.Items) < n {
		t.Items = append(t.Items, tItem{})
		changed, tail = true, true
	}
	for i := n - 1; i >= 0; i-- {
		s := src(i)
		if t.Items[i].src == s {
			break
		}
		t.Held -= t.Items[i].bytes
		t.Items[i] = tItem{src: s}
		changed, tail = true, true
	}
	if t.fItem >= n {
		t.fItem = -1
	}
	if tail && !t.follow {
		t.unseen = true
	}
	if !t.follow && t.TopItem >= n {
		t.follow = true
	}
	t.Layout()
	return changed
}

// ensure renders item i if its cache is stale and returns its lines.
func (t *Transcript) ensure(i int) *renderedItem {
	it := &t.Items[i]
	if it.stamp != t.stamp {
		it.r = t.render(i, t.contentWidth())
		it.stamp = t.stamp
		t.Held -= it.bytes
		it.bytes = heldBytes(&it.r)
		t.Held += it.bytes
	}
	return &it.r
}

// trim drops the rendered lines of the items farthest from the window
// while the transcript holds more than maxHeldBytes (down to half of it);
// the window and two items either side stay.
func (t *Transcript) trim() {
	if t.Held <= maxHeldBytes {
		return
	}
	first, last := t.VisibleItems()
	lo, hi := 0, len(t.Items)-1
	for t.Held > maxHeldBytes/2 && (lo < first-2 || hi > last+2) {
		if hi > last+2 && (hi-last >= first-lo || lo >= first-2) {
			t.drop(hi)
			hi--
		} else {
			t.drop(lo)
			lo++
		}
	}
}

func (t *Transcript) drop(i int) {
	it := &t.Items[i]
	t.Held -= it.bytes
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
