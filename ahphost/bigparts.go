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
	turns := ce.state.Turns
	for i := ce.refTurns; i < len(turns); i++ {
		t := turns[i]
		var parts []ahpwire.ResponsePart
		changed := false
		for j, p := range t.ResponseParts {
			switch {
			case p.Kind == ahpwire.PartMarkdown && int64(len(p.Content)) > limit:
				base := partURI(ce, t.ID, j)
				for k, text := range pages(p.Content, page) {
					ref := s.storePage(base+"/"+strconv.Itoa(k), "text/markdown", text)
					parts = append(parts, ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ref})
				}
				changed = true
				continue
			case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && hasLargeText(p.ToolCall, limit):
				p.ToolCall, changed = refToolOutput(s, p.ToolCall, partURI(ce, t.ID, j), limit, page), true
			}
			parts = append(parts, p)
		}
		if !changed {
			continue
		}
		if !stored {
			// Copy on write, once per call: snapshots being encoded
			// elsewhere may share the turns' backing array.
			turns = slices.Clone(turns)
			ce.state.Turns = turns
			stored = true
		}
		turns[i].ResponseParts = parts
	}
	ce.refTurns = len(turns)
}

// partURI is the resource URI prefix of a chat's turn's j-th part.
func partURI(ce *chatEntry, turnID string, j int) string {
	return largePartURIPrefix + ce.uri[len(ahpwire.ChatScheme)+1:] + "/" + turnID + "/" + strconv.Itoa(j)
}

// hasLargeText reports whether a tool call has a text result block larger
// than limit.
func hasLargeText(tc *ahpwire.ToolCallState, limit int64) bool {
	for _, c := range tc.Content {
		if c.Type == ahpwire.ContentText && int64(len(c.Text)) > limit {
			return true
		}
	}
	return false
}

// refToolOutput returns a copy of a finished tool call whose text result
// blocks larger than limit became resource blocks (one per page). tc
// itself is not modified (actions and seeds share it).
func refToolOutput(s *store, tc *ahpwire.ToolCallState, base string, limit, page int64) *ahpwire.ToolCallState {
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
