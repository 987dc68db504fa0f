package chat

import (
	"context"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// Searching content-reference pages.
//
// A long part the host keeps by reference (ahphost: 64 KiB pages, each a
// contentRef block of the message) is searched like any text, but its
// pages are read by the search job itself, in order, one per slice, through
// refSource (the loader's texts when it has them, else resourceRead: the
// one path export and copy use too). A page's text lives only while it is
// matched: the search keeps its hits' positions and the last few bytes of
// the page, to find a match that runs into the next page; nothing goes
// into the loader's cache. Cancelling the search cancels the read in
// flight and no further page is read. A page that cannot be read (gone
// from the host, the connection down) is counted and skipped.

// pageReader reads one content-reference page in full (refSource: the
// loader's texts, else resourceRead); it runs in commands only.
type pageReader func(ctx context.Context, uri string) (string, error)

// page reads the content-reference page of the current doc and matches
// it, and across its start the end of the page before it; the page's
// text is dropped when it returns (only a short tail is kept). A page
// that cannot be read is counted as failed and the search goes on; without
// a reader (a search while older turns are paged in) pages are skipped.
func (t *SearchTask) page(hits []SearchHit) SearchFoundMsg {
	d := &t.Docs[t.doc]
	if t.Read == nil { // pages are not read by this search
		t.tail = ""
		t.doc, t.part, t.off = t.doc+1, 0, 0
		return SearchFoundMsg{run: t.Run, Hits: hits}
	}
	out := SearchFoundMsg{run: t.Run, Pages: 1}
	ctx := t.Run.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	text, err := t.Read(ctx, d.ref)
	if t.Run.Stop.Load() {
		return SearchFoundMsg{run: t.Run}
	}
	tail := t.tail
	t.tail = ""
	if err != nil {
		out.Failed = 1
		t.doc, t.part, t.off = t.doc+1, 0, 0
		out.Hits = hits
		return out
	}
	if d.chain && tail != "" && t.hitEnd != t.doc && crossesInto(tail, text, t.Query) {
		p := &t.Docs[t.doc-1]
		hits = append(hits, SearchHit{Msg: p.msg, Block: p.block, index: p.index, msgID: p.msgID, Frac: 1, Ref: p.ref})
		t.hitEnd = t.doc
	}
	for off := 0; off < len(text); {
		at, next := findFold(text, t.Query, off, SearchWindow)
		if at >= 0 {
			hits = append(hits, SearchHit{Msg: d.msg, Block: d.block, index: d.index, msgID: d.msgID,
				Frac: float64(at) / float64(len(text)), Ref: d.ref})
			t.hitEnd = t.doc + 1
			break
		}
		off = next
	}
	t.tail = strings.Clone(text[runeStart(text, max(0, len(text)-searchTailBytes(t.Query))):])
	t.doc, t.part, t.off = t.doc+1, 0, 0
	out.Hits = hits
	return out
}

// searchTailBytes is how much of a page's end is kept to find a match
// crossing into the next page: the query's length, with room for what
// sanitising removes.
func searchTailBytes(q string) int { return 4 * len(q) }

// crossesInto reports a match of q (lower case) that starts in tail (the
// end of one page) and ends in the next page, text.
func crossesInto(tail, text, q string) bool {
	head := text[:runeStart(text, min(len(text), searchTailBytes(q)))]
	lt := strings.ToLower(render.Sanitize(tail))
	i := strings.Index(strings.ToLower(render.Sanitize(tail+head)), q)
	return i >= 0 && i < len(lt) && i+len(q) > len(lt)
}

// searchPage is one content-reference page a search reads.
type searchPage struct {
	uri  string
	size int // advertised size (0: unknown)
}

// searchPages lists the pages of a block a search reads: a contentRef
// block's reference, or the resources of a tool's output (ahphost keeps a
// long output as such pages). data: URIs, images and binaries are not
// read.
func searchPages(b *reducer.Block) []searchPage {
	var out []searchPage
	add := func(uri, ct string, hint *int64) {
		if uri == "" || strings.HasPrefix(uri, "data:") || binaryType(ct) {
			return
		}
		p := searchPage{uri: uri}
		if hint != nil && *hint > 0 {
			p.size = int(*hint)
		}
		out = append(out, p)
	}
	switch {
	case b.Kind == reducer.KindContentRef && b.Ref != nil:
		add(b.Ref.URI, b.Ref.ContentType, b.Ref.SizeHint)
	case b.Kind == reducer.KindToolCall && b.Tool != nil:
		for _, c := range b.Tool.Content {
			if c.Type == ahpwire.ContentResource {
				add(c.URI, c.ContentType, c.SizeHint)
			}
		}
	}
	return out
}

// binaryType reports content types a search does not read.
func binaryType(ct string) bool {
	ct = strings.ToLower(ct)
	for _, bin := range []string{"image/", "audio/", "video/", "application/octet-stream"} {
		if strings.HasPrefix(ct, bin) {
			return true
		}
	}
	return false
}

// CountSearchRefs counts the content-reference pages of msgs a search
// reads (the N of "page k/N"): a walk over blocks, not text.
func CountSearchRefs(msgs []*reducer.Message) int {
	n := 0
	for _, m := range msgs {
		if m == nil {
			continue
		}
		for _, b := range m.Blocks.All() {
			n += len(searchPages(b))
		}
	}
	return n
}
