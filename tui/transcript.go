package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// blockSpan locates one focusable block inside an item's rendered lines.
type blockSpan struct {
	ID         string // block id (stable across renders)
	Start, End int    // line range [Start, End)
	Expandable bool   // thinking, tool or error block: enter toggles it
}

// renderedItem is the cached output of rendering one transcript item.
type renderedItem struct {
	lines []string
	spans []blockSpan
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
// (item, line) so that items above the window never need to be rendered.
//
// Rendering happens in layout(), called from Update; View only reads.
type transcript struct {
	items         []tItem
	render        itemRenderer
	width, height int
	stamp         int // bumped on width or global view-option changes

	follow           bool // stick to the bottom
	topItem, topLine int  // first visible line when !follow
	unseen           bool // output arrived while scrolled up
	atTop            bool // the window starts at the first loaded line

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
func (t *transcript) SetSize(w, h int) {
	if w != t.width {
		t.stamp++
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

// bottomAnchor returns the anchor of the window that ends at the last line.
func (t *transcript) bottomAnchor() (item, line int, full bool) {
	need := t.height
	for i := len(t.items) - 1; i >= 0; i-- {
		n := len(t.ensure(i).lines)
		if n >= need {
			return i, n - need, true
		}
		need -= n
	}
	return 0, 0, false
}

// layout renders whatever the current window needs and normalises the anchor.
func (t *transcript) layout() {
	if t.width == 0 || len(t.items) == 0 {
		t.atTop = true
		return
	}
	if t.follow {
		i, l, full := t.bottomAnchor()
		t.topItem, t.topLine, t.atTop = i, l, !full || (i == 0 && l == 0)
		t.unseen = false
		return
	}
	// Clamp the anchor to the (possibly re-rendered) item.
	if t.topItem >= len(t.items) {
		t.follow = true
		t.layout()
		return
	}
	if n := len(t.ensure(t.topItem).lines); t.topLine >= n {
		t.topLine = max(0, n-1)
	}
	// If no more than height lines remain from the anchor we are at the bottom.
	have := 0
	for i := t.topItem; i < len(t.items) && have <= t.height; i++ {
		n := len(t.ensure(i).lines)
		if i == t.topItem {
			n -= t.topLine
		}
		have += n
	}
	if have <= t.height {
		t.follow = true
		t.layout()
		return
	}
	t.atTop = t.topItem == 0 && t.topLine == 0
}

// ScrollUp moves the window up n lines (stops at the first loaded line).
func (t *transcript) ScrollUp(n int) {
	if len(t.items) == 0 || n <= 0 {
		return
	}
	if t.follow {
		t.topItem, t.topLine, _ = t.bottomAnchor()
		t.follow = false
	}
	for n > 0 {
		if t.topLine >= n {
			t.topLine -= n
			break
		}
		n -= t.topLine
		t.topLine = 0
		if t.topItem == 0 {
			break
		}
		t.topItem--
		t.topLine = len(t.ensure(t.topItem).lines)
	}
	t.layout()
}

// ScrollDown moves the window down n lines; reaching the end follows again.
func (t *transcript) ScrollDown(n int) {
	if t.follow || n <= 0 {
		return
	}
	for n > 0 && t.topItem < len(t.items) {
		rest := len(t.ensure(t.topItem).lines) - t.topLine
		if rest > n {
			t.topLine += n
			break
		}
		n -= rest
		t.topItem++
		t.topLine = 0
	}
	t.layout()
}

// GotoTop shows the first loaded line.
func (t *transcript) GotoTop() {
	if len(t.items) == 0 {
		return
	}
	t.follow, t.topItem, t.topLine = false, 0, 0
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

// visibleItems returns the index range [first, last] of items in the window.
func (t *transcript) visibleItems() (first, last int) {
	if len(t.items) == 0 {
		return 0, -1
	}
	have := 0
	i := t.topItem
	for ; i < len(t.items); i++ {
		n := len(t.items[i].r.lines)
		if i == t.topItem {
			n -= t.topLine
		}
		have += n
		if have >= t.height {
			break
		}
	}
	return t.topItem, min(i, len(t.items)-1)
}

// View composes exactly height lines from the cached window.
func (t *transcript) View() string {
	if t.width <= 0 {
		return ""
	}
	out := make([]string, 0, t.height)
	for i := t.topItem; i < len(t.items) && len(out) < t.height; i++ {
		it := &t.items[i]
		start := 0
		if i == t.topItem {
			start = t.topLine
		}
		end := min(len(it.r.lines), start+t.height-len(out))
		if start < end {
			out = append(out, it.r.lines[start:end]...)
		}
	}
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
