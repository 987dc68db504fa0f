package ahphost

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// DefaultLargePartBytes is the size above which a finished turn's markdown
// part or text tool output is stored as resources (Options.LargePartBytes).
const DefaultLargePartBytes = 1 << 20

// DefaultResourcePageBytes is the size of one stored page of a large part
// (Options.ResourcePageBytes): each page is one contentRef part, so every
// resourceRead answer stays small enough for a peer that does not segment.
const DefaultResourcePageBytes = 64 << 10

// largePartURIPrefix names the resources of stored parts.
const largePartURIPrefix = "ahptui-part:/"

// refLargeParts replaces, in the turns of ce finished since the last call,
// every markdown part and text tool output larger than LargePartBytes by
// contentRef parts (resource blocks for tool output), one per page, whose
// text goes to the resource store. Live streaming is untouched: only
// finished turns are rewritten, so snapshots and fetchTurns pages carry
// references instead of the text. h.mu is held.
//
// When a text was stored, the replay log forgets the envelopes before the
// newest one (the action that finished the turn): they hold the text's
// deltas (up to ReplayLogBytes of them), a second copy of what the
// resource store now keeps. A client that reconnects from before then gets
// a snapshot, which is lossless and, with the text by reference, small.
func (s *store) refLargeParts(ce *chatEntry) {
	limit := s.h.opts.LargePartBytes
	if limit < 0 || ce.refTurns >= len(ce.state.Turns) {
		ce.refTurns = len(ce.state.Turns)
		return
	}
	page := s.h.opts.ResourcePageBytes
	stored := false
	defer func() {
		if stored {
			s.trimLogBefore(s.seq)
			s.h.releaseMemory()
		}
	}()
	for i := ce.refTurns; i < len(ce.state.Turns); i++ {
		t := ce.state.Turns[i]
		var parts []ahpwire.ResponsePart
		changed := false
		for j, p := range t.ResponseParts {
			base := largePartURIPrefix + ce.uri[len(ahpwire.ChatScheme)+1:] + "/" + t.ID + "/" + strconv.Itoa(j)
			switch {
			case p.Kind == ahpwire.PartMarkdown && int64(len(p.Content)) > limit:
				for k, text := range pages(p.Content, page) {
					ref := s.storePage(base+"/"+strconv.Itoa(k), "text/markdown", text)
					parts = append(parts, ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ref})
				}
				changed = true
				continue
			case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil:
				if tc := refToolOutput(s, p.ToolCall, base, limit, page); tc != nil {
					p.ToolCall, changed = tc, true
				}
			}
			parts = append(parts, p)
		}
		stored = stored || changed
		if changed {
			// Copy on write: snapshots being encoded elsewhere may share
			// the turns' backing array.
			ce.state.Turns = slices.Clone(ce.state.Turns)
			ce.state.Turns[i].ResponseParts = parts
		}
	}
	ce.refTurns = len(ce.state.Turns)
}

// refToolOutput returns a copy of a finished tool call whose large text
// result blocks became resource blocks (one per page), or nil when there
// is none. tc itself is not modified (actions and seeds share it).
func refToolOutput(s *store, tc *ahpwire.ToolCallState, base string, limit, page int64) *ahpwire.ToolCallState {
	big := false
	for _, c := range tc.Content {
		if c.Type == ahpwire.ContentText && int64(len(c.Text)) > limit {
			big = true
		}
	}
	if !big {
		return nil
	}
	cp := *tc
	cp.Content = nil
	for i, c := range tc.Content {
		if c.Type != ahpwire.ContentText || int64(len(c.Text)) <= limit {
			cp.Content = append(cp.Content, c)
			continue
		}
		for k, text := range pages(c.Text, page) {
			ref := s.storePage(base+"/out"+strconv.Itoa(i)+"/"+strconv.Itoa(k), "text/plain", text)
			cp.Content = append(cp.Content, ahpwire.ToolResultContent{Type: ahpwire.ContentResource,
				URI: ref.URI, SizeHint: ref.SizeHint, ContentType: ref.ContentType})
		}
	}
	return &cp
}

// storePage keeps one page as a resource and returns its reference.
func (s *store) storePage(uri, contentType, text string) ahpwire.ContentRef {
	s.putResource(uri, contentType, []byte(text))
	n := int64(len(text))
	return ahpwire.ContentRef{URI: uri, SizeHint: &n, ContentType: contentType}
}

// pages splits text into pieces of at most size bytes, cut on UTF-8
// boundaries, and after a blank line (else a newline) when one is in the
// last quarter of a piece: markdown paragraphs then stay whole in one page,
// so each page lays out as it does in the whole text, and joining the
// pages as markdown blocks (a blank line between them) gives the text back.
func pages(text string, size int64) []string {
	var out []string
	for int64(len(text)) > size {
		cut := int(size)
		for cut > 0 && text[cut]&0xc0 == 0x80 {
			cut--
		}
		if k := strings.LastIndex(text[cut*3/4:cut], "\n\n"); k >= 0 {
			cut = cut*3/4 + k + 2
		} else if k := strings.LastIndexByte(text[cut*3/4:cut], '\n'); k >= 0 {
			cut = cut*3/4 + k + 1
		}
		if cut == 0 {
			cut = int(size)
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	return append(out, text)
}

// releaseMemory runs Options.ReleaseMemory on its own goroutine, unless it
// is unset, already running or the host is closed. h.mu is held (so Close
// cannot be waiting on wg while it is added to).
func (h *Host) releaseMemory() {
	rel := h.opts.ReleaseMemory
	if rel == nil || h.closed || !h.releasing.CompareAndSwap(false, true) {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		defer h.releasing.Store(false)
		rel()
	}()
}
