package ahphost

import (
	"slices"
	"strconv"

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
func (s *store) refLargeParts(ce *chatEntry) {
	limit := s.h.opts.LargePartBytes
	if limit < 0 || ce.refTurns >= len(ce.state.Turns) {
		ce.refTurns = len(ce.state.Turns)
		return
	}
	if limit == 0 {
		limit = DefaultLargePartBytes
	}
	page := s.h.opts.ResourcePageBytes
	if page <= 0 {
		page = DefaultResourcePageBytes
	}
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
// boundaries (and after a newline when one is near the end of a piece).
func pages(text string, size int64) []string {
	var out []string
	for int64(len(text)) > size {
		cut := int(size)
		for cut > 0 && text[cut]&0xc0 == 0x80 {
			cut--
		}
		for k := cut - 1; k > cut*3/4; k-- {
			if text[k] == '\n' {
				cut = k + 1
				break
			}
		}
		if cut == 0 {
			cut = int(size)
		}
		out = append(out, text[:cut])
		text = text[cut:]
	}
	return append(out, text)
}
