package render

import (
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// Hostile-sized fields.
//
// Laying a string out costs time proportional to its length (grapheme
// segmentation, width measurement, wrapping), even when only a line of it
// is shown. A host can put kilobytes into every field of a tool call, and a
// pending call re-renders every frame, so the fields are capped before
// layout: names and one-line status fields at NameCap bytes (they are
// truncated to one line anyway), messages and titles at MessageCap bytes
// (a few screens of wrapped text). Output, input and result content are
// not capped here: they have their own bounded views.

// NameCap is the most bytes of a name or one-line field that are laid out.
const NameCap = 256

// MessageCap is the most bytes of a message or title that are laid out.
const MessageCap = 2048

// capField returns s cut to at most n bytes at a rune boundary, with "…"
// when something was cut.
func capField(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return CutAtRune(s, n) + "…"
}

// CutAtRune returns the longest prefix of s of at most n bytes that ends on
// a rune boundary (s itself when it is short enough): the one way text is
// cut to a byte budget without splitting a character.
func CutAtRune(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := max(n, 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// capRich is capField for a StringOrMarkdown; a nil or short value is
// returned as it is.
func capRich(p *ahpwire.StringOrMarkdown, n int) *ahpwire.StringOrMarkdown {
	if p == nil || len(p.Text) <= n {
		return p
	}
	c := *p
	c.Text = capField(c.Text, n)
	return &c
}

// capTool returns tc, or a shallow copy of it whose names, titles, status
// fields, option labels and messages are capped (see NameCap, MessageCap).
// tc itself is never modified.
func capTool(tc *ahpwire.ToolCallState) *ahpwire.ToolCallState {
	if !toolNeedsCap(tc) {
		return tc
	}
	c := *tc
	c.ToolName = capField(c.ToolName, NameCap)
	c.DisplayName = capField(c.DisplayName, NameCap)
	c.Intention = capField(c.Intention, MessageCap)
	c.Reason = capField(c.Reason, NameCap)
	c.Confirmed = capField(c.Confirmed, NameCap)
	c.InvocationMessage = capRich(c.InvocationMessage, MessageCap)
	c.ConfirmationTitle = capRich(c.ConfirmationTitle, MessageCap)
	c.PastTenseMessage = capRich(c.PastTenseMessage, MessageCap)
	c.ReasonMessage = capRich(c.ReasonMessage, MessageCap)
	if ra := c.RiskAssessment; ra != nil {
		r := *ra
		r.Kind, r.Status = capField(r.Kind, NameCap), capField(r.Status, NameCap)
		r.Reason = capRich(r.Reason, MessageCap)
		c.RiskAssessment = &r
	}
	if len(c.Options) > 0 {
		opts := make([]ahpwire.ConfirmationOption, len(c.Options))
		for i, o := range c.Options {
			o.Label, o.Kind = capField(o.Label, NameCap), capField(o.Kind, NameCap)
			opts[i] = o
		}
		c.Options = opts
	}
	if e := c.Error; e != nil {
		ce := *e
		ce.Message, ce.Code = capField(ce.Message, MessageCap), capField(ce.Code, NameCap)
		c.Error = &ce
	}
	return &c
}

// toolNeedsCap reports whether any capped field of tc is over its cap.
func toolNeedsCap(tc *ahpwire.ToolCallState) bool {
	over := func(p *ahpwire.StringOrMarkdown) bool { return p != nil && len(p.Text) > MessageCap }
	if len(tc.ToolName) > NameCap || len(tc.DisplayName) > NameCap || len(tc.Reason) > NameCap || len(tc.Confirmed) > NameCap ||
		len(tc.Intention) > MessageCap || over(tc.InvocationMessage) || over(tc.ConfirmationTitle) ||
		over(tc.PastTenseMessage) || over(tc.ReasonMessage) {
		return true
	}
	if ra := tc.RiskAssessment; ra != nil && (len(ra.Kind) > NameCap || len(ra.Status) > NameCap || over(ra.Reason)) {
		return true
	}
	for _, o := range tc.Options {
		if len(o.Label) > NameCap || len(o.Kind) > NameCap {
			return true
		}
	}
	return tc.Error != nil && (len(tc.Error.Message) > MessageCap || len(tc.Error.Code) > NameCap)
}
