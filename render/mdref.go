package render

import (
	"hash/maphash"
	"strings"

	"github.com/ahptui/ahptui/reducer"
)

// Markdown content references laid out on demand.
//
// A long reply the host keeps by reference is a run of contentRef blocks,
// each a page of the reply's markdown (ahphost: 64 KiB). Rendered whole
// with glamour, a fetched page costs ~200 ms, and a resize or the switch
// from the streamed text to the referenced form laid every fetched page
// out again. A fetched markdown page is laid out like a streamed text
// instead ([Renderer.textSections]): its completed blocks before the
// reply's PlainAfter offset as groups rendered when shown (mdlazy.go),
// those past it as plain pages (plainpage.go), so a page of a long reply
// looks as the reply did while it streamed and a frame lays out only what
// the window shows.

// refRun tracks the offset of consecutive markdown reference pages in the
// reply they hold (the sum of the sizes of the pages before).
type refRun struct {
	off int
}

// next returns the offset of block b in its run and advances past it; a
// block that is not a markdown reference ends the run.
func (u *refRun) next(b *reducer.Block, v ViewOpts) int {
	if b.Kind != reducer.KindContentRef || b.Ref == nil || refClass(b.Ref.ContentType) != refMarkdown {
		u.off = 0
		return 0
	}
	at := u.off
	switch text, ok := v.resource(b.Ref.URI); {
	case b.Ref.SizeHint != nil && *b.Ref.SizeHint > 0:
		u.off += int(*b.Ref.SizeHint)
	case ok:
		u.off += len(text)
	default:
		u.off += maxRefMarkdown
	}
	return at
}

// refSection lays a fetched markdown reference page that starts at offset
// at of its reply out as one page section; it reports false for any other
// block (drawn whole by block). A reference block is always one section
// of its own, loaded or not, so loading it moves no other block's
// section (a window anchored in a later block, or a search's jump to
// this one, stays where it was).
func (r *Renderer) refSection(m *reducer.Message, b *reducer.Block, at, width int, v ViewOpts, focus bool) (Section, bool) {
	if b.Kind != reducer.KindContentRef || b.Ref == nil || refClass(b.Ref.ContentType) != refMarkdown {
		return Section{}, false
	}
	text, ok := v.resource(b.Ref.URI)
	if !ok {
		return Section{Lines: r.block(m, b, width, v)}, true
	}
	return Section{Page: &Page{r: r, width: width, style: r.styles.Name, focus: focus,
		ref: &refPage{uri: b.Ref.URI, text: text, at: at, hash: maphash.String(r.md.seed, text)}}}, true
}

// refPage is what a [Page] of a markdown reference lays out: the fetched
// text, its offset in the reply, and its hash (with the URI, its key in the
// page cache).
type refPage struct {
	uri, text string
	at        int
	hash      uint64
}

// lines lays the reference page out whole (the renderer's mutex is held):
// through glamour's block cache before PlainAfter of the reply, plain
// (a few ms a MB) past it.
func (p *refPage) lines(e *markdownEngine, width int) []string {
	if strings.TrimSpace(p.text) == "" {
		return nil
	}
	d := e.docAt("ref\x00"+p.uri, p.text, p.at, true, width, false)
	out := make([]string, 0, len(d.head)+1)
	out = append(out, d.head...)
	if d.lead {
		out = append(out, "")
	}
	for _, pr := range d.pages {
		out = append(out, pr.pg.layout(e, pr.n, width)...)
	}
	return out
}
