package chat

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/render"
)

// Jumping to a hit in a content-reference page.
//
// A page's text may not be loaded when its hit is jumped to (the search
// read it without keeping it). The jump scrolls to the page's block; the
// loader then reads it the usual way, as it came into view, and when
// pages load (refreshExt) the jump is redone, so the match is shown once
// the page's text is laid out, and stays shown while pages above it load
// and grow. It stops when the user scrolls, jumps elsewhere or the search
// ends (cancel).

// revealPage scrolls to the hit's line inside its page's block (the
// block's first line while the page is not loaded) and remembers the hit
// to settle later. It reports false when the block is not laid out.
func (m *Model) revealPage(item int, h SearchHit) bool {
	r := m.Transcript.ensure(item)
	sp := findSpan(r.spans, SpanID(render.BlockKey{MessageID: h.msgID, Index: h.index}))
	if sp == nil {
		return false
	}
	at := tpos{item, sp.StartSec, sp.Start}
	if _, loaded := m.loadedTexts()[h.Ref]; loaded {
		at.sec, at.line = spanLineNear(r, sp, m.Extras.Search.Query, h.Frac)
	}
	m.Transcript.reveal(item, at.sec, at.line)
	s := &m.Extras.Search
	s.settle, s.at = &h, m.Transcript.top()
	return true
}

// spanLineNear returns the line of span sp (in r) showing q nearest after
// frac of the way through it, wrapping to its start; or, when no line
// shows q (a match split across two pages), the line frac points at.
func spanLineNear(r *renderedItem, sp *blockSpan, q string, frac float64) (sec, line int) {
	type run struct {
		sec, from, to int
		lines         []string
	}
	var runs []run
	total := 0
	for s := sp.StartSec; s <= sp.EndSec && s < r.nsecs(); s++ {
		lines := r.sec(s)
		n := len(lines)
		from, to := 0, n
		if s == sp.StartSec {
			from = min(sp.Start, n)
		}
		if s == sp.EndSec {
			to = min(sp.End, n)
		}
		if from < to {
			runs = append(runs, run{s, from, to, lines})
			total += to - from
		}
	}
	if total == 0 {
		return sp.StartSec, sp.Start
	}
	// at maps the k-th line of the span to its run and line.
	at := func(k int) (*run, int) {
		for i := range runs {
			if ru := &runs[i]; k < ru.to-ru.from {
				return ru, ru.from + k
			}
			k -= runs[i].to - runs[i].from
		}
		last := &runs[len(runs)-1]
		return last, last.to - 1
	}
	guess := min(total-1, int(frac*float64(total)))
	start := max(0, guess-64)
	lq := strings.ToLower(q)
	for k := range total {
		ru, l := at((start + k) % total)
		if strings.Contains(strings.ToLower(ansi.Strip(ru.lines[l])), lq) {
			return ru.sec, l
		}
	}
	ru, l := at(guess)
	return ru.sec, l
}

// loadedTexts is the loader's texts (nil without one).
func (m *Model) loadedTexts() map[string]string {
	if m.c.Channels == nil {
		return nil
	}
	return m.c.Channels.Loader.Texts()
}

// SettleSearch redoes the last jump to a hit in a page after content
// loaded, unless the user has scrolled since.
func (m *Model) SettleSearch() {
	s := &m.Extras.Search
	h := s.settle
	if h == nil {
		return
	}
	if m.Transcript.follow || s.at != m.Transcript.top() {
		s.settle = nil
		return
	}
	m.gotoHit(*h)
}
