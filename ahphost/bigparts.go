package ahphost

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// DefaultLargePartBytes is the size above which a finished turn's markdown
// part or text tool output is stored as resources (Options.LargePartBytes).
const DefaultLargePartBytes = 1 << 20

// DefaultPagedPartBytes is LargePartBytes's default (paged streams): the
// size up to which a markdown part streams inline (bigstream.go), small
// enough that a turn holding such a part, JSON-escaped, still fits a 1 MiB
// message.
const DefaultPagedPartBytes = 256 << 10

// DefaultResourcePageBytes is the size of one stored page of a large part
// (Options.ResourcePageBytes): each page is one contentRef part, so every
// resourceRead answer stays small enough for a peer that does not segment.
const DefaultResourcePageBytes = 64 << 10

// largePartURIPrefix names the resources of stored parts.
const largePartURIPrefix = "ahptui-part:/"

// Large finished parts (issue 21): the chat's state is never rewritten —
// it changes only through actions every client reduces, so a client that
// mirrors the action stream and one that takes a fresh snapshot hold the
// same state. A finished turn with a markdown part or text tool output
// larger than LargePartBytes is instead
//
//   - left out of chat snapshots: the snapshot's window starts after the
//     newest such turn (turnsNextCursor leads to it), as any window may;
//   - served by fetchTurns in its chat/turnsLoaded page with those parts as
//     contentRef parts (resource blocks for tool output), one per page of
//     ResourcePageBytes, whose text resourceRead serves.
//
// chat/turnsLoaded is an action: what a client holds after a page is what
// it reduced. See docs/ARCHITECTURE.md ("Large replies") and docs/USAGE.md.

// refLargeParts notes the turns of ce finished since the last call that
// hold a large part (ce.largeTurns, their indices) and, when there is one,
// makes the replay log forget the envelopes before the newest action: they
// hold the text's deltas (up to ReplayLogBytes of them), and a client that
// reconnects from before then gets a snapshot instead. ce.state is not
// changed. h.mu is held.
func (s *store) refLargeParts(ce *chatEntry) {
	limit := s.h.opts.LargePartBytes
	if limit < 0 || ce.refTurns >= len(ce.state.Turns) {
		ce.refTurns = len(ce.state.Turns)
		return
	}
	found := false
	for i := ce.refTurns; i < len(ce.state.Turns); i++ {
		if turnIsLarge(ce.state.Turns[i], limit) {
			ce.lastLarge, found = i+1, true
		}
	}
	ce.refTurns = len(ce.state.Turns)
	if found {
		s.trimLogBefore(s.seq)
		s.h.releaseMemory()
	}
}

// turnIsLarge reports whether a finished turn holds a part larger than
// limit bytes that fetchTurns serves by reference.
func turnIsLarge(t ahpwire.Turn, limit int64) bool {
	for _, p := range t.ResponseParts {
		switch {
		case p.Kind == ahpwire.PartMarkdown && int64(len(p.Content)) > limit:
			return true
		case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && hasLargeText(p.ToolCall, limit):
			return true
		case isPagedPart(p):
			return true
		}
	}
	return false
}

// isPagedPart reports a contentRef part, or a tool call with a resource
// block, that holds a page of a long text the host stored while the turn
// streamed (bigstream.go).
func isPagedPart(p ahpwire.ResponsePart) bool {
	if p.Kind == ahpwire.PartContentRef && p.Ref != nil {
		return strings.HasPrefix(p.Ref.URI, largePartURIPrefix)
	}
	if p.Kind == ahpwire.PartToolCall && p.ToolCall != nil {
		for _, c := range p.ToolCall.Content {
			if c.Type == ahpwire.ContentResource && strings.HasPrefix(c.URI, largePartURIPrefix) {
				return true
			}
		}
	}
	return false
}

// referencedTurn returns turn t of ce as fetchTurns serves it: a copy whose
// parts larger than LargePartBytes are contentRef parts (resource blocks
// for tool output), one per page, stored in the resource store (storing a
// page again replaces it with the same bytes). t itself is not modified.
// h.mu is held.
func (s *store) referencedTurn(ce *chatEntry, t ahpwire.Turn) ahpwire.Turn {
	limit, page := s.h.opts.LargePartBytes, s.h.opts.ResourcePageBytes
	if limit < 0 || !turnIsLarge(t, limit) {
		return t
	}
	parts := make([]ahpwire.ResponsePart, 0, len(t.ResponseParts))
	for j, p := range t.ResponseParts {
		switch {
		case p.Kind == ahpwire.PartMarkdown && int64(len(p.Content)) > limit:
			base := partURI(ce, t.ID, j)
			for k, text := range pages(p.Content, page) {
				ref := s.storePage(base+"/"+strconv.Itoa(k), "text/markdown", []byte(text))
				parts = append(parts, ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ref})
			}
			continue
		case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && hasLargeText(p.ToolCall, limit):
			p.ToolCall = refToolOutput(s, p.ToolCall, partURI(ce, t.ID, j), limit, page)
		}
		parts = append(parts, p)
	}
	t.ResponseParts = parts
	return t
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
	cp.Content = refTextBlocks(s, tc.Content, base, limit, page)
	return &cp
}

// refTextBlocks returns a copy of content whose text blocks larger than
// limit are resource blocks, one per page, stored under base.
func refTextBlocks(s *store, content []ahpwire.ToolResultContent, base string, limit, page int64) []ahpwire.ToolResultContent {
	var out []ahpwire.ToolResultContent
	for i, c := range content {
		if c.Type != ahpwire.ContentText || int64(len(c.Text)) <= limit {
			out = append(out, c)
			continue
		}
		for k, text := range pages(c.Text, page) {
			ref := s.storePage(base+"/out"+strconv.Itoa(i)+"/"+strconv.Itoa(k), "text/plain", []byte(text))
			out = append(out, ahpwire.ToolResultContent{Type: ahpwire.ContentResource,
				URI: ref.URI, SizeHint: ref.SizeHint, ContentType: ref.ContentType})
		}
	}
	return out
}

// storePage keeps one page as a resource and returns its reference; data
// is the page's own copy (the resource store and the state database keep
// it).
func (s *store) storePage(uri, contentType string, data []byte) ahpwire.ContentRef {
	s.putResource(uri, contentType, data)
	n := int64(len(data))
	return ahpwire.ContentRef{URI: uri, SizeHint: &n, ContentType: contentType}
}

// pages splits text into pieces of at most size bytes, cut on UTF-8
// boundaries, and after a blank line (else a newline) when one is in the
// last quarter of a piece: markdown paragraphs then stay whole in one page,
// so each page lays out as it does in the whole text, and joining the
// pages as markdown blocks (a blank line between them) gives the text back.
func pages[T ~string | ~[]byte](text T, size int64) []T {
	var out []T
	for int64(len(text)) > size {
		cut := int(size)
		for cut > 0 && text[cut]&0xc0 == 0x80 {
			cut--
		}
		if k := lastBreak(text[cut*3/4:cut], true); k >= 0 {
			cut = cut*3/4 + k
		} else if k := lastBreak(text[cut*3/4:cut], false); k >= 0 {
			cut = cut*3/4 + k
		}
		if cut == 0 {
			cut = int(size)
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	return append(out, text)
}

// lastBreak returns the offset just after the last blank line ("\n\n";
// the last newline when blank is false) in text, -1 when there is none.
func lastBreak[T ~string | ~[]byte](text T, blank bool) int {
	for i := len(text) - 1; i >= 0; i-- {
		if text[i] != '\n' {
			continue
		}
		if !blank {
			return i + 1
		}
		if i+1 < len(text) && text[i+1] == '\n' {
			return i + 2
		}
	}
	return -1
}
