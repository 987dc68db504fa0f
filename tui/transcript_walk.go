package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Walking the transcript: every move goes section by section from the
// anchor and stops after the window (plus a margin), so neither items nor
// pages far from the window are rendered or laid out.

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

// layout renders whatever the current window needs, normalises the anchor
// and keeps the held lines within their bound.
func (t *transcript) layout() {
	t.place()
	t.trim()
}

// place renders whatever the current window needs and normalises the anchor.
func (t *transcript) place() {
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
		t.place()
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
		t.place()
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
