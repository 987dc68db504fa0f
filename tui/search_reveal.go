package tui

import "github.com/ahptui/ahptui/render"

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
func (m *chatModel) revealPage(item int, h searchHit) bool {
	r := m.tr.ensure(item)
	sp := findSpan(r.spans, spanID(render.BlockKey{MessageID: h.msgID, Index: h.index}))
	if sp == nil || sp.Start >= sp.End || sp.End > len(r.lines) {
		return false
	}
	_, loaded := m.loadedTexts()[h.ref]
	line := sp.Start
	if loaded {
		if i := lineNear(r.lines[sp.Start:sp.End], m.x.search.query, h.frac); i >= 0 {
			line += i
		} else { // a match across pages: where the text says
			line += min(sp.End-sp.Start-1, int(h.frac*float64(sp.End-sp.Start)))
		}
	}
	m.tr.reveal(item, line)
	s := &m.x.search
	s.settle, s.at = &h, [2]int{m.tr.topItem, m.tr.topLine}
	return true
}

// loadedTexts is the loader's texts (nil without one).
func (m *chatModel) loadedTexts() map[string]string {
	if m.c.ext == nil {
		return nil
	}
	return m.c.ext.loader.Texts()
}

// settleSearch redoes the last jump to a hit in a page after content
// loaded, unless the user has scrolled since.
func (m *chatModel) settleSearch() {
	s := &m.x.search
	h := s.settle
	if h == nil {
		return
	}
	if m.tr.follow || s.at != [2]int{m.tr.topItem, m.tr.topLine} {
		s.settle = nil
		return
	}
	m.gotoHit(*h)
}
