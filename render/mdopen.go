package render

import "strings"

// The open block of a long text.
//
// A block that will be laid out as plain text once complete (it starts
// past PlainAfter, or has grown larger than PlainAfter) is laid out the
// same way while it streams: its complete lines go to pages of their own
// (openPages), laid out on demand like the text's other pages, and only
// the incomplete last line is laid out every frame. So an open block of
// any size (one huge code fence) costs a frame no more than its last line,
// and holds no lines but the pages shown; when it completes, its lines
// look the same, now as pages of the text's plain region.

// openPages is the provisional plain layout of the open block.
type openPages struct {
	start int // the open block's offset; -1 = none
	scan  int // the first source line not yet in reg
	reg   *plainRegion
}

// plainOpen reports whether the open block sp will be laid out as plain
// text.
func plainOpen(sp span) bool {
	return sp.end > sp.start && (sp.start >= PlainAfter || sp.end-sp.start > PlainAfter)
}

// openLines brings the open block's pages up to date and returns them
// with the layout of the incomplete last line.
func (e *markdownEngine) openLines(st *mdState, sp span, width int) ([]pageRef, []string) {
	o := &st.open
	text := st.text
	if o.reg == nil || o.start != sp.start {
		a := sp.start
		for a < sp.end && text[a] == '\n' {
			a++
		}
		*o = openPages{start: sp.start, scan: a, reg: &plainRegion{ids: &e.pageIDs}}
		// The drawn tail of the block so far is not needed any more.
		st.seg, st.fence = tailSegs{start: -1}, fenceTail{start: -1}
	}
	o.reg.text = text
	if nl := strings.LastIndexByte(text[o.scan:sp.end], '\n'); nl >= 0 {
		o.reg.cut(text, o.scan, o.scan+nl, false)
		o.scan += nl + 1
	}
	// A last line longer than maxLineBytes is cut where a complete one
	// would be.
	for sp.end-o.scan > maxLineBytes {
		c := o.scan + len(CutAtRune(text[o.scan:sp.end], maxLineBytes))
		if c == o.scan {
			c = o.scan + maxLineBytes
		}
		o.reg.cut(text, o.scan, c, false)
		o.scan = c
	}
	refs := make([]pageRef, len(o.reg.pages))
	for i, pg := range o.reg.pages {
		refs[i] = pageRef{pg: pg, n: len(pg.pieces)}
	}
	var last []string
	if o.scan < sp.end {
		last = e.plainLines(text[o.scan:sp.end], width)
	}
	return refs, last
}
