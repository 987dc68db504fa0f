package ahphost

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// Big replies while they stream (issue 31). A markdown part the agent
// streams grows inline, through chat/delta, up to LargePartBytes; the text
// it streams past that continues as contentRef parts, one per page of
// ResourcePageBytes, each stored as a resource and appended with
// chat/responsePart. Tool results (chat/toolCallComplete,
// chat/toolCallContentChanged) with text blocks over LargePartBytes are
// rewritten before they are applied: those blocks become resource blocks,
// one per page. Every subscriber reduces the same actions, so a client
// that watched the reply and one that pages the finished turn in with
// fetchTurns hold the same parts — the state changes only through actions
// every subscriber sees.

// spilledPart is a markdown part of the active turn that reached
// LargePartBytes: what the agent streams into it after that is gathered
// in pending and sent as contentRef pages.
type spilledPart struct {
	turnID, partID string
	base           string // resource URI prefix of its pages
	pending        []byte
	pages          int
}

// agentChatAction applies one chat action of a running agent: a delta that
// would take its part past LargePartBytes is split (the rest paged); any
// other action first sends the pages still pending, then large tool output
// and large responsePart markdown are referenced. h.mu is held.
func (s *store) agentChatAction(ce *chatEntry, a ahpwire.Action) {
	if d, ok := a.(*ahpwire.ChatDelta); ok {
		if !s.gatherDelta(ce, d) { // (coalesce.go)
			s.flushDelta(ce)
			s.agentDelta(ce, d)
		}
		return
	}
	s.flushDelta(ce)
	if s.h.opts.InlineStreams {
		s.applyServerChat(ce, a)
		return
	}
	s.flushSpill(ce)
	switch a := a.(type) {
	case *ahpwire.ChatResponsePart:
		if s.largeResponsePart(ce, a) {
			return
		}
	case *ahpwire.ChatToolCallComplete:
		if c, ok := s.refContent(ce, a.TurnID, a.ToolCallID, a.Result.Content); ok {
			cp := *a
			cp.Result.Content = c
			a = &cp
		}
		s.applyServerChat(ce, a)
		return
	case *ahpwire.ChatToolCallContentChanged:
		if c, ok := s.refContent(ce, a.TurnID, a.ToolCallID, a.Content); ok {
			cp := *a
			cp.Content = c
			a = &cp
		}
		s.applyServerChat(ce, a)
		return
	}
	s.applyServerChat(ce, a)
}

// agentDelta applies an agent's delta (gathered ones too): split and paged
// when it takes its part past LargePartBytes. h.mu is held.
func (s *store) agentDelta(ce *chatEntry, d *ahpwire.ChatDelta) {
	if s.h.opts.InlineStreams {
		s.applyServerChat(ce, d)
		return
	}
	if s.streamLarge(ce, d) {
		return
	}
	s.flushSpill(ce)
	s.applyServerChat(ce, d)
}

// streamLarge handles a delta that belongs to a spilled part or would take
// its markdown part past LargePartBytes; false leaves d to the caller.
func (s *store) streamLarge(ce *chatEntry, d *ahpwire.ChatDelta) bool {
	limit := s.h.opts.LargePartBytes
	if limit < 0 {
		return false
	}
	if sp := ce.spill; sp != nil {
		if sp.turnID == d.TurnID && sp.partID == d.PartID {
			sp.pending = append(sp.pending, d.Content...)
			s.sendPages(ce, false)
			return true
		}
		s.flushSpill(ce)
	}
	at := ce.state.ActiveTurn
	if at == nil || at.ID != d.TurnID {
		return false
	}
	idx := -1
	var part ahpwire.ResponsePart
	for i := range at.ResponseParts.Indexes(d.PartID) {
		if p := at.ResponseParts.At(i); p.Kind == ahpwire.PartMarkdown {
			idx, part = i, p
			break
		}
	}
	if idx < 0 {
		return false
	}
	cur := int64(len(part.Content))
	if cur+int64(len(d.Content)) <= limit {
		return false
	}
	head := headCut(part.Content, d.Content, limit)
	if head != "" {
		cp := *d
		cp.Content = head
		s.applyServerChat(ce, &cp)
	}
	ce.spill = &spilledPart{turnID: d.TurnID, partID: d.PartID, base: partURI(ce, d.TurnID, idx),
		pending: append([]byte(nil), d.Content[len(head):]...)}
	s.sendPages(ce, false)
	return true
}

// largeResponsePart appends a markdown part whose content is over
// LargePartBytes as its inline head and contentRef pages of the rest;
// false leaves other parts to the caller.
func (s *store) largeResponsePart(ce *chatEntry, a *ahpwire.ChatResponsePart) bool {
	limit := s.h.opts.LargePartBytes
	at := ce.state.ActiveTurn
	if limit < 0 || a.Part.Kind != ahpwire.PartMarkdown || int64(len(a.Part.Content)) <= limit || at == nil || at.ID != a.TurnID {
		return false
	}
	idx := at.ResponseParts.Len()
	head := headCut("", a.Part.Content, limit)
	cp := *a
	cp.Part = ahpwire.MarkdownPart(a.Part.ID, head)
	cp.Part.Meta = a.Part.Meta
	s.applyServerChat(ce, &cp)
	ce.spill = &spilledPart{turnID: a.TurnID, partID: a.Part.ID, base: partURI(ce, a.TurnID, idx),
		pending: []byte(a.Part.Content[len(head):])}
	s.flushSpill(ce)
	return true
}

// sendPages appends the pending text of the spilled part as contentRef
// parts: every whole page, and the last partial one too when final.
func (s *store) sendPages(ce *chatEntry, final bool) {
	sp := ce.spill
	size := s.h.opts.ResourcePageBytes
	if len(sp.pending) == 0 || (!final && int64(len(sp.pending)) <= size) {
		return
	}
	ps := pages(sp.pending, size)
	var keep []byte
	if !final {
		ps, keep = ps[:len(ps)-1], ps[len(ps)-1]
	}
	for _, text := range ps {
		at := ce.state.ActiveTurn
		if at == nil || at.ID != sp.turnID {
			break
		}
		ref := s.storePage(sp.base+"/"+strconv.Itoa(sp.pages), "text/markdown", bytes.Clone(text))
		sp.pages++
		s.applyServerChat(ce, &ahpwire.ChatResponsePart{TurnID: sp.turnID,
			Part: ahpwire.ResponsePart{Kind: ahpwire.PartContentRef, Ref: &ref}})
	}
	sp.pending = append(sp.pending[:0], keep...)
}

// flushSpill sends what a spilled part still holds back (the turn moved
// on: another part, a tool call, its end) and forgets the part.
func (s *store) flushSpill(ce *chatEntry) {
	if ce.spill == nil {
		return
	}
	if at := ce.state.ActiveTurn; at != nil && at.ID == ce.spill.turnID {
		s.sendPages(ce, true)
	}
	ce.spill = nil
}

// refContent returns content with its text blocks over LargePartBytes as
// resource blocks, one per page (ok false: nothing to reference). The
// blocks given are not modified.
func (s *store) refContent(ce *chatEntry, turnID, toolCallID string, content []ahpwire.ToolResultContent) ([]ahpwire.ToolResultContent, bool) {
	limit := s.h.opts.LargePartBytes
	if limit < 0 {
		return nil, false
	}
	large := false
	for _, c := range content {
		large = large || (c.Type == ahpwire.ContentText && int64(len(c.Text)) > limit)
	}
	if !large {
		return nil, false
	}
	base := largePartURIPrefix + ce.uri[len(ahpwire.ChatScheme)+1:] + "/" + turnID + "/tool/" + toolCallID
	return refTextBlocks(s, content, base, limit, s.h.opts.ResourcePageBytes), true
}

// headCut returns the prefix of more that the part holding cur keeps
// inline so that it stays within limit bytes: it ends after a blank line
// (else a newline) when one is in the last quarter of the limit, as pages
// are cut, so the inline head and the pages after it lay out as the whole
// text does; else on a rune boundary.
func headCut(cur, more string, limit int64) string {
	room := int(limit) - len(cur)
	if room <= 0 {
		return ""
	}
	if len(more) <= room {
		return more
	}
	cut := room
	for cut > 0 && !utf8.RuneStart(more[cut]) {
		cut--
	}
	from := max(0, int(limit)*3/4-len(cur))
	if from < cut {
		win := more[from:cut]
		if k := strings.LastIndex(win, "\n\n"); k >= 0 {
			return more[:from+k+2]
		}
		if k := strings.LastIndexByte(win, '\n'); k >= 0 {
			return more[:from+k+1]
		}
	}
	return more[:cut]
}
