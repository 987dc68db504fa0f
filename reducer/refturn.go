package reducer

import (
	"slices"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// A host may keep a finished turn's long texts as content references
// (contentRef parts whose pages it serves through resourceRead) while the
// subscribers that watched the turn stream still hold the text inline. A
// client that asks for the turn again (fetchTurns) can adopt the
// referenced form and drop its own copy of the text: AdoptRefTurn checks
// that the host's turn shows the same content (every other part unchanged,
// each long markdown part replaced by a run of markdown references whose
// sizes add up to the text, cut on rune boundaries) and returns the pages
// of the dropped text so the caller can seed its resource cache with the
// ones on screen. It is not an AHP transition: AHP's state of the chat is
// unchanged except for the representation of one finished turn.

// RefPage is one page of a text being dropped: the content-reference URI
// that now shows it and its text (a substring of the dropped text; copy
// what you keep, or the whole text stays in memory).
type RefPage struct {
	URI  string
	Text string
}

// AdoptRefTurn replaces the finished turn of cs with t's ID by t when t
// shows the same content with at least one markdown part as references
// (see above), and the assistant message of that turn in s by t's
// projection (MessageReplaced). It returns the pages of the replaced
// texts, and ok false (cs and s unchanged) when t does not qualify.
func AdoptRefTurn(cs ahpwire.ChatState, s State, t ahpwire.Turn) (ahpwire.ChatState, State, []RefPage, bool) {
	i := slices.IndexFunc(cs.Turns, func(x ahpwire.Turn) bool { return x.ID == t.ID })
	if i < 0 || t.ID == "" || (cs.ActiveTurn != nil && cs.ActiveTurn.ID == t.ID) {
		return cs, s, nil, false
	}
	parts, pages, ok := matchRefParts(cs.Turns[i].ResponseParts, t.ResponseParts)
	if !ok || len(pages) == 0 {
		return cs, s, nil, false
	}
	nt := cs.Turns[i]
	nt.ResponseParts = parts
	before := s.Seq
	ns := Reduce(s, MessageReplaced{Message: turnAssistantMessage(&nt, timestamp(nt.StartedAt))})
	if ns.Seq == before { // the message is not in the transcript
		return cs, s, nil, false
	}
	cs.Turns = slices.Clone(cs.Turns)
	cs.Turns[i] = nt
	return cs, ns, pages, true
}

// matchRefParts walks the client's parts have and the host's parts got:
// a part the host left alone is kept as the client has it; a markdown
// part the host replaced by a run of markdown references must have been
// cut into pages whose sizes add up to its length on rune boundaries. It
// returns the adopted parts and the pages of the replaced texts.
func matchRefParts(have, got []ahpwire.ResponsePart) ([]ahpwire.ResponsePart, []RefPage, bool) {
	out := make([]ahpwire.ResponsePart, 0, len(got))
	var pages []RefPage
	j := 0
	for k := range have {
		p := &have[k]
		if j < len(got) && samePlace(p, &got[j]) {
			out = append(out, *p)
			j++
			continue
		}
		if p.Kind != ahpwire.PartMarkdown || p.Content == "" {
			return nil, nil, false
		}
		text, off, start := p.Content, 0, j
		for j < len(got) && off < len(text) {
			ref := got[j].Ref
			if got[j].Kind != ahpwire.PartContentRef || ref == nil || ref.SizeHint == nil || ref.ContentType != "text/markdown" {
				break
			}
			n := int(*ref.SizeHint)
			if n <= 0 || n > len(text)-off || (off+n < len(text) && !utf8.RuneStart(text[off+n])) {
				return nil, nil, false
			}
			pages = append(pages, RefPage{URI: ref.URI, Text: text[off : off+n]})
			off += n
			j++
		}
		if off != len(text) || j == start {
			return nil, nil, false
		}
		out = append(out, got[start:j]...)
	}
	if j != len(got) {
		return nil, nil, false
	}
	return out, pages, true
}

// samePlace reports whether the host's part b is the client's part a left
// as it was: the same kind and identity, and for text the same text. Tool
// calls are matched by id (a host may have stored their long outputs as
// references; the client keeps its own copy of those).
func samePlace(a, b *ahpwire.ResponsePart) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case ahpwire.PartMarkdown, ahpwire.PartReasoning:
		return a.ID == b.ID && a.Content == b.Content
	case ahpwire.PartToolCall:
		return a.ToolCall != nil && b.ToolCall != nil && a.ToolCall.ToolCallID == b.ToolCall.ToolCallID
	case ahpwire.PartInputRequest:
		return a.Request != nil && b.Request != nil && a.Request.ID == b.Request.ID
	case ahpwire.PartContentRef:
		return a.Ref != nil && b.Ref != nil && a.Ref.URI == b.Ref.URI
	}
	return true
}

// reduceMessageReplaced swaps a finished message for its new form.
func reduceMessageReplaced(s State, a MessageReplaced) State {
	m := a.Message
	if !validMessage(m) {
		s.Stats.IgnoredActions++
		return s
	}
	i := slices.IndexFunc(s.Messages, func(x *Message) bool { return x.ID == m.ID && x.Role == m.Role })
	if i < 0 {
		s.Stats.IgnoredActions++
		return s
	}
	s.Seq++
	s = s.setMessages(s.Messages) // a fresh log only this state holds
	s.Messages[i] = finishedCopy(m, s.Seq)
	s.Totals = sumUsage(s.Messages)
	return s
}
