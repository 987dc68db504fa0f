package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

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

// itemRenderer renders item i at the given content width.
type itemRenderer func(i, width int) renderedItem

// tItem is one transcript entry (a message) and its cached lines.
type tItem struct {
	src   any // identity of the source (an immutable *Message); a new value invalidates
	r     renderedItem
	stamp int // layout stamp the cache was rendered with; 0 = never
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
	}
	return &it.r
}

// tpos is a line of the transcript: item, section of the item, line of
// the section.
type tpos struct{ item, sec, line int }

// secLines returns the lines of section s of item i, rendering the item
// and laying a page out if needed.
func (t *transcript) secLines(i, s int) []string { return t.ensure(i).sec(s) }

// prevSec returns the section before (i, s).
func (t *transcript) prevSec(i, s int) (int, int, bool) {
	if s > 0 {
		return i, s - 1, true
	}
	if i <= 0 {
		return 0, 0, false
	}
	return i - 1, t.ensure(i-1).nsecs() - 1, true
}

// nextSec returns the section after (i, s).
func (t *transcript) nextSec(i, s int) (int, int, bool) {
	if s+1 < t.ensure(i).nsecs() {
		return i, s + 1, true
	}
	if i+1 >= len(t.items) {
		return 0, 0, false
	}
	return i + 1, 0, true
}

// bottomAnchor returns the anchor of the window that ends at the last line.
func (t *transcript) bottomAnchor() (p tpos, full bool) {
	need := t.height
	i := len(t.items) - 1
	s := t.ensure(i).nsecs() - 1
	for {
		n := len(t.secLines(i, s))
		if n >= need {
			return tpos{i, s, n - need}, true
		}
		need -= n
		var ok bool
		if i, s, ok = t.prevSec(i, s); !ok {
			return tpos{}, false
		}
	}
}

func (t *transcript) top() tpos     { return tpos{t.topItem, t.topSec, t.topLine} }
func (t *transcript) setTop(p tpos) { t.topItem, t.topSec, t.topLine = p.item, p.sec, p.line }

// layout renders whatever the current window needs and normalises the anchor.
func (t *transcript) layout() {
	if t.width == 0 || len(t.items) == 0 {
		t.atTop = true
		return
	}
	if t.follow {
		p, full := t.bottomAnchor()
		t.setTop(p)
		t.atTop = !full || p == tpos{}
		t.unseen = false
		return
	}
	// Clamp the anchor to the (possibly re-rendered) item.
	if t.topItem >= len(t.items) {
		t.follow = true
		t.layout()
		return
	}
	if ns := t.ensure(t.topItem).nsecs(); t.topSec >= ns {
		t.topSec, t.topLine = ns-1, len(t.secLines(t.topItem, ns-1))
	}
	if n := len(t.secLines(t.topItem, t.topSec)); t.topLine >= n {
		t.topLine = max(0, n-1)
	}
	// If no more than height lines remain from the anchor we are at the bottom.
	if t.linesFrom(t.top(), t.height+1) <= t.height {
		t.follow = true
		t.layout()
		return
	}
	t.atTop = t.top() == tpos{}
}

// linesFrom counts the lines from p to the end, stopping at limit.
func (t *transcript) linesFrom(p tpos, limit int) int {
	have := 0
	i, s := p.item, p.sec
	for have < limit {
		n := len(t.secLines(i, s))
		if i == p.item && s == p.sec {
			n -= p.line
		}
		have += max(n, 0)
		var ok bool
		if i, s, ok = t.nextSec(i, s); !ok {
			break
		}
	}
	return have
}

// ScrollUp moves the window up n lines (stops at the first loaded line).
func (t *transcript) ScrollUp(n int) {
	if len(t.items) == 0 || n <= 0 {
		return
	}
	if t.follow {
		p, _ := t.bottomAnchor()
		t.setTop(p)
		t.follow = false
	}
	t.up(n)
	t.layout()
}

// up moves the anchor up n lines (not past the first line).
func (t *transcript) up(n int) {
	for n > 0 {
		if t.topLine >= n {
			t.topLine -= n
			return
		}
		n -= t.topLine
		t.topLine = 0
		i, s, ok := t.prevSec(t.topItem, t.topSec)
		if !ok {
			return
		}
		t.topItem, t.topSec, t.topLine = i, s, len(t.secLines(i, s))
	}
}

// ScrollDown moves the window down n lines; reaching the end follows again.
func (t *transcript) ScrollDown(n int) {
	if t.follow || n <= 0 {
		return
	}
	for n > 0 && t.topItem < len(t.items) {
		rest := len(t.secLines(t.topItem, t.topSec)) - t.topLine
		if rest > n {
			t.topLine += n
			break
		}
		n -= rest
		i, s, ok := t.nextSec(t.topItem, t.topSec)
		if !ok {
			t.setTop(tpos{item: len(t.items)})
			break
		}
		t.setTop(tpos{i, s, 0})
	}
	t.layout()
}

// GotoTop shows the first loaded line.
func (t *transcript) GotoTop() {
	if len(t.items) == 0 {
		return
	}
	t.follow = false
	t.setTop(tpos{})
	t.layout()
}

// GotoBottom follows the output again.
func (t *transcript) GotoBottom() {
	t.follow, t.unseen = true, false
	t.layout()
}

// Following reports whether the view sticks to new output.
func (t *transcript) Following() bool { return t.follow }

// AtTop reports whether the first loaded line is visible.
func (t *transcript) AtTop() bool { return t.atTop }

// window calls f for the runs of lines of the window, from the anchor
// down, at most height lines; f gets the item, section and its lines
// [from, to). Items are used as last rendered (View only reads).
func (t *transcript) window(f func(item, sec int, lines []string, from, to int)) {
	left := t.height
	i, s := t.topItem, t.topSec
	for left > 0 && i < len(t.items) {
		r := &t.items[i].r
		if s < r.nsecs() {
			lines := r.sec(s)
			start := 0
			if i == t.topItem && s == t.topSec {
				start = min(t.topLine, len(lines))
			}
			end := min(len(lines), start+left)
			f(i, s, lines, start, end)
			left -= end - start
		}
		if s++; s >= r.nsecs() {
			i, s = i+1, 0
		}
	}
}

// visibleItems returns the index range [first, last] of items in the window.
func (t *transcript) visibleItems() (first, last int) {
	if len(t.items) == 0 {
		return 0, -1
	}
	last = t.topItem
	t.window(func(item, _ int, _ []string, _, _ int) { last = item })
	return t.topItem, min(last, len(t.items)-1)
}

// View composes exactly height lines from the cached window.
func (t *transcript) View() string {
	if t.width <= 0 {
		return ""
	}
	out := make([]string, 0, t.height)
	t.window(func(_, _ int, lines []string, from, to int) { out = append(out, lines[from:to]...) })
	for len(out) < t.height {
		out = append(out, "")
	}
	if t.width < 20 { // render.MinWidth: narrower panes get 20-cell lines, which would wrap
		for i, l := range out {
			out[i] = ansi.Truncate(l, t.width, "")
		}
	}
	if !t.follow && t.unseen {
		out[len(out)-1] = t.markerSty.Render(ansi.Truncate(t.markerText, t.width, "…"))
	}
	return strings.Join(out, "\n")
}

func findSpan(spans []blockSpan, id string) *blockSpan {
	for i := range spans {
		if spans[i].ID == id {
			return &spans[i]
		}
	}
	return nil
}
