package chat

import (
	"context"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// A search runs off Update. Update only takes, in bounded batches, the
// strings a search looks at (string headers: a block's text is immutable
// once read, textbuf never rewrites bytes a view covers) and hands them to
// a command, which matches them on its own goroutine and reports the hits
// of at most searchSlice bytes at a time; Update appends them and starts
// the next slice. A new query or closing the search replaces the running
// search (a *searchRun, its identity) and raises its stop flag: its slice
// returns early and its report is dropped, so no stale hit is ever
// applied. Content-reference pages are read by the slices themselves, one
// page per slice (search_refs.go).
const (
	// SearchWindow is how much text is sanitised, lowered and scanned at
	// once (a query spanning two windows is still found: windows overlap
	// by the query's length).
	SearchWindow = 1 << 20
	// SearchSlice is how much text one command scans before it reports.
	SearchSlice = 8 << 20
	// searchBatchBytes and searchBatchMsgs bound what Update captures for
	// one batch of commands.
	searchBatchBytes = 16 << 20
	searchBatchMsgs  = 512
)

// searchDoc is what a search looks at of one block (or of a message's
// attachments, index -1): its searchable strings, raw (each window is
// sanitised as it is scanned), or the URI of the content-reference page
// it shows (read when the search reaches it).
type searchDoc struct {
	msg    *reducer.Message // never dereferenced off the UI goroutine
	msgID  string
	block  string
	index  int
	parts  []string
	ref    string // a contentRef page's URI ("": parts)
	chain  bool   // ref continues the previous doc's page (the block before it)
	before int    // text bytes of the message before this doc
	msgLen int    // text bytes of the whole message
}

// SearchHit is one block of one message that contains the query.
type SearchHit struct {
	Msg   *reducer.Message // resolved to a transcript item when jumped to
	Block string           // block id
	index int              // block index (for render.BlockKey); -1: an attachment
	msgID string
	// Frac is where in the message's text the match is (0..1), to find
	// its rendered line without scanning them all; for a page (ref set),
	// where in the page's text.
	Frac float64
	Ref  string // the content-reference page the hit is in ("": none)
}

// SearchRun is one search, from a query change to its end or cancel; its
// pointer tells its reports from those of any other search (of this chat
// or another).
type SearchRun struct {
	Stop   atomic.Bool        // set when the search is cancelled
	ctx    context.Context    // ends with the search: a page being read is abandoned
	cancel context.CancelFunc // stops the search (see stopRun)
}

// NewSearchRun starts a search whose page reads end with parent or the
// search.
func NewSearchRun(parent context.Context) *SearchRun {
	r := &SearchRun{}
	r.ctx, r.cancel = context.WithCancel(parent)
	return r
}

// stopRun cancels r: no slice goes on and no page is read after it.
func (r *SearchRun) stopRun() {
	r.Stop.Store(true)
	if r.cancel != nil {
		r.cancel()
	}
}

// SearchTask is one batch of documents being matched, and where the
// matching is.
type SearchTask struct {
	Run            *SearchRun
	Query          string // trimmed, lower case
	Docs           []searchDoc
	Read           pageReader // nil: pages are skipped (not read, not counted)
	doc, part, off int
	// tail is the end of the last page read (a copy: the page itself is
	// dropped), to find a match that crosses into the next page; hitEnd
	// is 1 + the last doc that had a hit (one hit per doc), 0 for none.
	tail   string
	hitEnd int
}

// SearchFoundMsg reports the hits of one slice of a search; rest goes on
// with the batch (nil when the batch is done). pages counts the
// content-reference pages the slice looked at, failed those of them that
// could not be read.
type SearchFoundMsg struct {
	run           *SearchRun
	Hits          []SearchHit
	Rest          *SearchTask
	Pages, Failed int
}

// cmd runs the next slice of t on the command's goroutine.
func (t *SearchTask) cmd() tea.Cmd {
	return func() tea.Msg { return t.Slice() }
}

// Slice matches up to searchSlice bytes, or one content-reference page
// (so progress and hits show page by page); one hit per document.
func (t *SearchTask) Slice() SearchFoundMsg {
	var hits []SearchHit
	budget := SearchSlice
	for t.doc < len(t.Docs) {
		if t.Run.Stop.Load() {
			return SearchFoundMsg{run: t.Run}
		}
		if budget <= 0 {
			return SearchFoundMsg{run: t.Run, Hits: hits, Rest: t}
		}
		d := &t.Docs[t.doc]
		if d.ref != "" {
			out := t.page(hits)
			if !t.Run.Stop.Load() && t.doc < len(t.Docs) {
				out.Rest = t
			}
			return out
		}
		if t.part >= len(d.parts) {
			t.doc, t.part, t.off = t.doc+1, 0, 0
			continue
		}
		s := d.parts[t.part]
		at, next := findFold(s, t.Query, t.off, min(budget, SearchWindow))
		budget -= max(1, next-t.off)
		switch {
		case at >= 0:
			pos := d.before + at
			for _, p := range d.parts[:t.part] {
				pos += len(p)
			}
			hits = append(hits, SearchHit{Msg: d.msg, Block: d.block, index: d.index, msgID: d.msgID,
				Frac: float64(pos) / float64(max(1, d.msgLen))})
			t.hitEnd = t.doc + 1
			t.doc, t.part, t.off = t.doc+1, 0, 0
		case next >= len(s):
			t.part, t.off = t.part+1, 0
		default:
			t.off = next
		}
	}
	return SearchFoundMsg{run: t.Run, Hits: hits}
}

// findFold looks for q (lower case) in the sanitised, lowered window of s
// starting at from, about n bytes long (cut on rune boundaries) plus
// len(q)-1 bytes of overlap. It returns the match's byte offset in s
// (approximate when sanitising changed the window's length), or -1, and
// where the next window starts.
func findFold(s, q string, from, n int) (at, next int) {
	next = runeStart(s, min(len(s), from+n))
	end := runeStart(s, min(len(s), next+len(q)-1))
	w := strings.ToLower(render.Sanitize(s[from:end]))
	if i := strings.Index(w, q); i >= 0 {
		return from + min(i, end-from), next
	}
	return -1, next
}

// runeStart moves i forward to the start of a rune (or len(s)).
func runeStart(s string, i int) int {
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}

// CaptureDocs takes the documents of msgs[from:], up to searchBatchMsgs
// messages or searchBatchBytes of text (at least one message), and returns
// them and the index of the first message not taken. It only copies string
// headers. A content-reference page (a contentRef block, a tool output
// resource) is a doc of its URI, read when the search reaches it, loaded
// or not; consecutive pages of a message chain.
func CaptureDocs(msgs []*reducer.Message, from int) (docs []searchDoc, next int) {
	size := 0
	for next = from; next < len(msgs) && next-from < searchBatchMsgs && (size < searchBatchBytes || next == from); next++ {
		m := msgs[next]
		if m == nil {
			continue
		}
		first, msgLen, prevRef := len(docs), 0, false
		for _, b := range m.Blocks.All() {
			parts := blockSearchParts(b)
			n := 0
			for _, p := range parts {
				n += len(p)
			}
			if n > 0 {
				docs = append(docs, searchDoc{msg: m, msgID: m.ID, block: b.ID, index: b.Index, parts: parts, before: msgLen})
				prevRef = false
			}
			msgLen += n
			pages := searchPages(b)
			for _, p := range pages {
				docs = append(docs, searchDoc{msg: m, msgID: m.ID, block: b.ID, index: b.Index, ref: p.uri, chain: prevRef, before: msgLen})
				msgLen += p.size
				prevRef = true
			}
			if n == 0 && len(pages) == 0 {
				prevRef = false
			}
		}
		var labels []string
		for _, a := range m.Attachments {
			if a.Label != "" {
				labels = append(labels, a.Label)
			}
		}
		if len(labels) > 0 {
			docs = append(docs, searchDoc{msg: m, msgID: m.ID, index: -1, parts: labels, before: msgLen})
		}
		for i := first; i < len(docs); i++ {
			docs[i].msgLen = msgLen
		}
		size += msgLen
	}
	return docs, next
}
