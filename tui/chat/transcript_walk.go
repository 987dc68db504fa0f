package chat

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

// SecLines returns the lines of section s of item i, rendering the item
// and laying a page out if needed.
func (t *Transcript) SecLines(i, s int) []string { return t.ensure(i).sec(s) }

// prevSec returns the section before (i, s).
func (t *Transcript) prevSec(i, s int) (int, int, bool) {
	if s > 0 {
		return i, s - 1, true
	}
	if i <= 0 {
		return 0, 0, false
	}
	return i - 1, t.ensure(i-1).nsecs() - 1, true
}

// nextSec returns the section after (i, s).
func (t *Transcript) nextSec(i, s int) (int, int, bool) {
	if s+1 < t.ensure(i).nsecs() {
		return i, s + 1, true
	}
	if i+1 >= len(t.Items) {
		return 0, 0, false
	}
	return i + 1, 0, true
}

// bottomAnchor returns the anchor of the window that ends at the last line.
func (t *Transcript) bottomAnchor() (p tpos, full bool) {
	need := t.Height
	i := len(t.Items) - 1
	s := t.ensure(i).nsecs() - 1
	for {
		n := len(t.SecLines(i, s))
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

func (t *Transcript) top() tpos { return tpos{t.TopItem, t.topSec, t.topLine} }

func (t *Transcript) setTop(p tpos) { t.TopItem, t.topSec, t.topLine = p.item, p.sec, p.line }

// Layout renders whatever the current window needs, normalises the anchor
// and keeps the held lines within their bound.
func (t *Transcript) Layout() {
	t.place()
	t.trim()
}

// place renders whatever the current window needs and normalises the anchor.
func (t *Transcript) place() {
	if t.width == 0 || len(t.Items) == 0 {
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
	if t.TopItem >= len(t.Items) {
		t.follow = true
		t.place()
		return
	}
	if ns := t.ensure(t.TopItem).nsecs(); t.topSec >= ns {
		t.topSec, t.topLine = ns-1, len(t.SecLines(t.TopItem, ns-1))
	}
	if n := len(t.SecLines(t.TopItem, t.topSec)); t.topLine >= n {
		t.topLine = max(0, n-1)
	}
	// If no more than height lines remain from the anchor we are at the bottom.
	if t.linesFrom(t.top(), t.Height+1) <= t.Height {
		t.follow = true
		t.place()
		return
	}
	t.atTop = t.top() == tpos{}
}

// linesFrom counts the lines from p to the end, stopping at limit.
func (t *Transcript) linesFrom(p tpos, limit int) int {
	have := 0
	i, s := p.item, p.sec
	for have < limit {
		n := len(t.SecLines(i, s))
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
func (t *Transcript) ScrollUp(n int) {
	if len(t.Items) == 0 || n <= 0 {
		return
	}
	if t.follow {
		p, _ := t.bottomAnchor()
		t.setTop(p)
		t.follow = false
	}
	t.up(n)
	t.Layout()
}

// up moves the anchor up n lines (not past the first line).
func (t *Transcript) up(n int) {
	for n > 0 {
		if t.topLine >= n {
			t.topLine -= n
			return
		}
		n -= t.topLine
		t.topLine = 0
		i, s, ok := t.prevSec(t.TopItem, t.topSec)
		if !ok {
			return
		}
		t.TopItem, t.topSec, t.topLine = i, s, len(t.SecLines(i, s))
	}
}

// ScrollDown moves the window down n lines; reaching the end follows again.
func (t *Transcript) ScrollDown(n int) {
	if t.follow || n <= 0 {
		return
	}
	for n > 0 && t.TopItem < len(t.Items) {
		rest := len(t.SecLines(t.TopItem, t.topSec)) - t.topLine
		if rest > n {
			t.topLine += n
			break
		}
		n -= rest
		i, s, ok := t.nextSec(t.TopItem, t.topSec)
		if !ok {
			t.setTop(tpos{item: len(t.Items)})
			break
		}
		t.setTop(tpos{i, s, 0})
	}
	t.Layout()
}

// GotoTop shows the first loaded line.
func (t *Transcript) GotoTop() {
	if len(t.Items) == 0 {
		return
	}
	t.follow = false
	t.setTop(tpos{})
	t.Layout()
}

// GotoBottom follows the output again.
func (t *Transcript) GotoBottom() {
	t.follow, t.unseen = true, false
	t.Layout()
}

// Following reports whether the view sticks to new output.
func (t *Transcript) Following() bool { return t.follow }

// AtTop reports whether the first loaded line is visible.
func (t *Transcript) AtTop() bool { return t.atTop }

// window calls f for the runs of lines of the window, from the anchor
// down, at most height lines; f gets the item, section and its lines
// [from, to). Items are used as last rendered (View only reads).
func (t *Transcript) window(f func(item, sec int, lines []string, from, to int)) {
	left := t.Height
	i, s := t.TopItem, t.topSec
	for left > 0 && i < len(t.Items) {
		r := &t.Items[i].r
		if s < r.nsecs() {
			lines := r.sec(s)
			start := 0
			if i == t.TopItem && s == t.topSec {
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

// VisibleItems returns the index range [first, last] of items in the window.
func (t *Transcript) VisibleItems() (first, last int) {
	if len(t.Items) == 0 {
		return 0, -1
	}
	last = t.TopItem
	t.window(func(item, _ int, _ []string, _, _ int) { last = item })
	return t.TopItem, min(last, len(t.Items)-1)
}

// View composes exactly height lines from the cached window.
func (t *Transcript) View() string {
	if t.width <= 0 {
		return ""
	}
	out := make([]string, 0, t.Height)
	t.window(func(_, _ int, lines []string, from, to int) { out = append(out, lines[from:to]...) })
	for len(out) < t.Height {
		out = append(out, "")
	}
	if t.width < 20 { // render.MinWidth: narrower panes get 20-cell lines, which would wrap
		for i, l := range out {
			out[i] = ansi.Truncate(l, t.width, "")
		}
	}
	if !t.follow && t.unseen {
		out[len(out)-1] = t.MarkerSty.Render(ansi.Truncate(t.markerText, t.width, "…"))
	}
	return strings.Join(out, "\n")
}
