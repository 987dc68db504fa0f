package ahpwire

import "github.com/ahptui/ahptui/internal/textbuf"

// AppendContent returns p with s appended to Content; p itself is not
// changed. Successive appends to the newest version of a part share one
// append-only buffer (package internal/textbuf), so streaming n deltas into
// a part costs amortised O(len(delta)) per delta instead of
// O(len(Content)), while every earlier version keeps its own Content.
// Content stays an ordinary string for readers and for JSON; if it was
// reassigned since the last append, the text starts a new buffer.
func (p ResponsePart) AppendContent(s string) ResponsePart {
	if s == "" {
		return p
	}
	t := p.text
	if !t.Views(p.Content) {
		t = textbuf.New(p.Content)
	}
	p.text = t.Append(s)
	p.Content = p.text.String()
	return p
}

// Text returns Content as an append-only text without copying it: the
// buffer AppendContent built when Content still views it, otherwise a view
// of Content itself (textbuf.Of). A reader that keeps the result (the
// client's transcript) shares the part's text instead of keeping a second
// copy.
func (p *ResponsePart) Text() textbuf.Text {
	if p.text.Views(p.Content) {
		return p.text
	}
	return textbuf.Of(p.Content)
}

// AppendPartialInput returns t with s appended to PartialInput (which is set
// even when s is empty); t is not changed. Like AppendContent, successive
// appends to the newest version share one append-only buffer, so streaming
// a tool call's input costs amortised O(len(s)) per delta, and every
// earlier version keeps its own PartialInput.
func (t ToolCallState) AppendPartialInput(s string) ToolCallState {
	cur := ""
	if t.PartialInput != nil {
		cur = *t.PartialInput
	}
	pt := t.partial
	if !pt.Views(cur) {
		pt = textbuf.Of(cur)
	}
	t.partial = pt.Append(s)
	in := t.partial.String()
	t.PartialInput = &in
	return t
}
