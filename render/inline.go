package render

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/charmbracelet/x/ansi"
)

// Inline markdown for one-line places.
//
// Tool pills, confirmation titles, invocation messages and cancel or risk
// reasons are AHP StringOrMarkdown values: short, usually one line, often
// "Ran `ls`". Sending each through glamour would cost a full document
// render per pill per frame and wrap it in block margins, so they get a
// small inline parser instead: code spans (drawn in Styles.InlineCode,
// without backticks), **strong** and *emphasis* (bold and italic on the
// surrounding style), links and autolinks (their text), and backslash
// escapes. Everything else, including block syntax, stays literal. The
// text is sanitised before parsing, so the spans hold no controls.

// inlineAttr is the styling of an inline span.
type inlineAttr uint8

const (
	attrCode inlineAttr = 1 << iota
	attrBold
	attrItalic
)

// inlineSpan is a run of text with one styling.
type inlineSpan struct {
	text string
	attr inlineAttr
}

// richSpans returns the spans of a StringOrMarkdown value: sanitised, and
// parsed as inline markdown when it is markdown. oneLineMode folds it onto
// one line first.
func richSpans(rt ahpwire.StringOrMarkdown, oneLineMode bool) []inlineSpan {
	var s string
	if oneLineMode {
		s = oneLine(rt.Text)
	} else {
		s = strings.TrimSpace(Sanitize(rt.Text))
	}
	if s == "" {
		return nil
	}
	if !rt.Markdown {
		return []inlineSpan{{text: s}}
	}
	return parseInline(s)
}

// parseInline splits sanitised text into styled spans (see the comment at
// the top of this file). Unmatched delimiters are literal.
func parseInline(s string) []inlineSpan {
	var p inlineParser
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			p.text.WriteByte(s[i+1])
			i += 2
		case c == '`':
			n := runLen(s, i, '`')
			if end := findBackticks(s, i+n, n); end >= 0 {
				p.flush()
				code := s[i+n : end]
				if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.TrimSpace(code) != "" {
					code = code[1 : len(code)-1]
				}
				p.spans = append(p.spans, inlineSpan{text: code, attr: p.attr | attrCode})
				i = end + n
				continue
			}
			p.text.WriteString(s[i : i+n])
			i += n
		case c == '*' || c == '_':
			n := runLen(s, i, c)
			i = p.delimiter(s, i, n, c)
		case c == '[':
			if text, end, ok := parseLink(s, i); ok {
				p.text.WriteString(text)
				i = end
				continue
			}
			p.text.WriteByte(c)
			i++
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 1 && isAutolink(s[i+1:i+j]) {
				p.text.WriteString(s[i+1 : i+j])
				i += j + 1
				continue
			}
			p.text.WriteByte(c)
			i++
		default:
			p.text.WriteByte(c)
			i++
		}
	}
	p.flush()
	return p.spans
}

type inlineParser struct {
	spans []inlineSpan
	text  strings.Builder
	attr  inlineAttr
	// open delimiter of the current bold / italic run ('*' or '_').
	boldCh, italCh byte
}

func (p *inlineParser) flush() {
	if p.text.Len() > 0 {
		p.spans = append(p.spans, inlineSpan{text: p.text.String(), attr: p.attr})
		p.text.Reset()
	}
}

// delimiter handles a run of n '*' or '_' at s[i] and returns where
// parsing continues.
func (p *inlineParser) delimiter(s string, i, n int, c byte) int {
	before, after := byte(' '), byte(' ')
	if i > 0 {
		before = s[i-1]
	}
	if i+n < len(s) {
		after = s[i+n]
	}
	canOpen := after != ' '
	canClose := before != ' '
	if c == '_' {
		// No intraword emphasis with underscores (snake_case stays).
		canOpen = canOpen && !isWordByte(before)
		canClose = canClose && !isWordByte(after)
	}
	consumed := 0
	switch {
	case n >= 2 && p.attr&attrBold != 0 && p.boldCh == c && canClose:
		p.flush()
		p.attr &^= attrBold
		consumed = 2
	case p.attr&attrItalic != 0 && p.italCh == c && canClose:
		p.flush()
		p.attr &^= attrItalic
		consumed = 1
	case n >= 2 && p.attr&attrBold == 0 && canOpen && hasCloser(s, i+n, c, 2):
		p.flush()
		p.attr |= attrBold
		p.boldCh = c
		consumed = 2
	case p.attr&attrItalic == 0 && canOpen && hasCloser(s, i+n, c, 1):
		p.flush()
		p.attr |= attrItalic
		p.italCh = c
		consumed = 1
	}
	if consumed == 0 {
		p.text.WriteString(s[i : i+n])
		return i + n
	}
	return i + consumed
}

// hasCloser reports whether a closing run of at least n c's (preceded by a
// non-space) follows from s[from:].
func hasCloser(s string, from int, c byte, n int) bool {
	for j := from; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] != c {
			continue
		}
		k := runLen(s, j, c)
		if k >= n && j > from && s[j-1] != ' ' && (c != '_' || j+k >= len(s) || !isWordByte(s[j+k])) {
			return true
		}
		j += k - 1
	}
	return false
}

// findBackticks returns the start of the next run of exactly n backticks
// from s[from:], or -1.
func findBackticks(s string, from, n int) int {
	for j := from; j < len(s); {
		if s[j] != '`' {
			j++
			continue
		}
		k := runLen(s, j, '`')
		if k == n {
			return j
		}
		j += k
	}
	return -1
}

// parseLink parses "[text](dest)" at s[i] and returns the text.
func parseLink(s string, i int) (text string, end int, ok bool) {
	close := strings.IndexByte(s[i:], ']')
	if close < 1 || i+close+1 >= len(s) || s[i+close+1] != '(' {
		return "", 0, false
	}
	paren := strings.IndexByte(s[i+close+1:], ')')
	if paren < 0 {
		return "", 0, false
	}
	text = s[i+1 : i+close]
	if text == "" {
		text = s[i+close+2 : i+close+1+paren]
	}
	return text, i + close + 1 + paren + 1, true
}

func isAutolink(s string) bool {
	if strings.ContainsAny(s, " <") {
		return false
	}
	k := strings.Index(s, ":")
	return k >= 2 && k+1 < len(s)
}

func runLen(s string, i int, c byte) int {
	n := 0
	for i+n < len(s) && s[i+n] == c {
		n++
	}
	return n
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// spansWidth is the display width of spans.
func spansWidth(spans []inlineSpan) int {
	w := 0
	for _, s := range spans {
		w += ansi.StringWidth(s.text)
	}
	return w
}

// spanStyle is the style of a span drawn on base.
func (r *Renderer) spanStyle(base lipgloss.Style, a inlineAttr) lipgloss.Style {
	st := base
	if a&attrCode != 0 {
		st = r.styles.InlineCode.Inherit(base)
	}
	if a&attrBold != 0 {
		st = st.Bold(true)
	}
	if a&attrItalic != 0 {
		st = st.Italic(true)
	}
	return st
}

// inlineLine draws spans on one line of at most width columns, cutting the
// last visible span with "…" when they do not fit.
func (r *Renderer) inlineLine(spans []inlineSpan, base lipgloss.Style, width int) string {
	if width < 1 {
		return ""
	}
	total := spansWidth(spans)
	var b strings.Builder
	used := 0
	for _, s := range spans {
		w := ansi.StringWidth(s.text)
		text := s.text
		if total > width && used+w >= width {
			// The rest does not fit: cut here, leaving a column for "…".
			text = ansi.Truncate(text, width-used-1, "") + "…"
			b.WriteString(r.spanStyle(base, s.attr).Render(text))
			break
		}
		b.WriteString(r.spanStyle(base, s.attr).Render(text))
		used += w
	}
	return b.String()
}

// inlineBlock word-wraps spans to width minus the indent (hard breaks at
// newlines, long words cut) and draws each line with indent.
func (r *Renderer) inlineBlock(spans []inlineSpan, base lipgloss.Style, width int, indent string) []string {
	limit := max(width-ansi.StringWidth(indent), 1)
	var lines [][]inlineSpan
	var cur []inlineSpan
	curW := 0
	newLine := func() {
		lines = append(lines, cur)
		cur, curW = nil, 0
	}
	add := func(text string, a inlineAttr) {
		if n := len(cur); n > 0 && cur[n-1].attr == a {
			cur[n-1].text += text
		} else {
			cur = append(cur, inlineSpan{text: text, attr: a})
		}
		curW += ansi.StringWidth(text)
	}
	for _, s := range spans {
		for li, part := range strings.Split(s.text, "\n") {
			if li > 0 {
				trimSpansRight(cur)
				newLine()
			}
			for _, word := range splitWords(part) {
				w := ansi.StringWidth(word)
				if word == " " {
					if curW > 0 && curW+1 <= limit {
						add(word, s.attr)
					}
					continue
				}
				if curW+w > limit && curW > 0 {
					trimSpansRight(cur)
					newLine()
				}
				for w > limit {
					head := ansi.Truncate(word, limit, "")
					if head == "" {
						_, n := utf8.DecodeRuneInString(word)
						head = word[:n]
					}
					add(head, s.attr)
					newLine()
					word = word[len(head):]
					w = ansi.StringWidth(word)
				}
				if word != "" {
					add(word, s.attr)
				}
			}
		}
	}
	trimSpansRight(cur)
	newLine()
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if spansWidth(l) == 0 {
			out = append(out, "")
			continue
		}
		out = append(out, indent+r.inlineLine(l, base, limit))
	}
	return trimEmpty(out)
}

// splitWords splits s into words and single spaces (runs of spaces
// collapse).
func splitWords(s string) []string {
	var out []string
	for _, f := range strings.Split(s, " ") {
		if f != "" {
			out = append(out, f)
		}
		out = append(out, " ")
	}
	if len(out) > 0 {
		out = out[:len(out)-1]
	}
	return out
}

// trimSpansRight drops trailing spaces of the last span.
func trimSpansRight(l []inlineSpan) {
	if n := len(l); n > 0 {
		l[n-1].text = strings.TrimRight(l[n-1].text, " ")
	}
}

// trimEmpty drops leading and trailing empty lines.
func trimEmpty(l []string) []string {
	for len(l) > 0 && l[0] == "" {
		l = l[1:]
	}
	for len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// richBlock renders a StringOrMarkdown value wrapped under indent.
func (r *Renderer) richBlock(rt ahpwire.StringOrMarkdown, base lipgloss.Style, width int, indent string) []string {
	return r.inlineBlock(richSpans(rt, false), base, width, indent)
}

// RichPlain returns a StringOrMarkdown value as sanitised plain text on one
// line: markdown loses its inline syntax (code spans without backticks,
// strong and emphasis markers dropped, links as their text); plain text is
// kept as it is.
func RichPlain(rt ahpwire.StringOrMarkdown) string {
	var b strings.Builder
	for _, s := range richSpans(rt, true) {
		b.WriteString(s.text)
	}
	return b.String()
}

// RichLine draws a StringOrMarkdown value on one line of at most width
// columns in base, with inline markdown styled as in tool pills (code
// spans in Styles.InlineCode, strong bold, emphasis italic), cut with "…"
// when it does not fit.
func (r *Renderer) RichLine(rt ahpwire.StringOrMarkdown, base lipgloss.Style, width int) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.inlineLine(richSpans(rt, true), base, width)
}
