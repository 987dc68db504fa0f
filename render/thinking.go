package render

import (
	"strings"
	"time"

	"github.com/ahptui/ahptui/reducer"
)

// Thinking glyphs.
const (
	thinkingIcon = "✻"
	tailBar      = "│ "
)

// thinking renders a thinking block in the view v asks for.
func (r *Renderer) thinking(m *reducer.Message, b *reducer.Block, k BlockKey, width int, v ViewOpts) []string {
	st := r.styles.Thinking
	live := thinkingLive(m, b)
	t := r.observe(k, live, v.Now, startHint(m, b))
	head := r.thinkingHeader(b, live, t, v)
	lines := []string{gutter + st.Label.Render(truncatePlain(head, width-len(gutter)))}
	if b.Redacted {
		return lines
	}
	mode := v.Thinking
	if v.Expanded[k] {
		mode = ThinkingFull
	}
	text := strings.TrimSpace(b.Text())
	if text == "" {
		return lines
	}
	inner := width - len(gutter) - len(tailBar)
	switch {
	case mode == ThinkingFull:
		body := wrapText(Sanitize(text), inner)
		return append(lines, r.barLines(body)...)
	case mode == ThinkingTail && live:
		n := v.tailLines()
		body := wrapText(Sanitize(lastLinesSource(text, n, inner)), inner)
		if len(body) > n {
			body = body[len(body)-n:]
		}
		return append(lines, r.barLines(body)...)
	}
	return lines
}

// barLines styles thinking text under a vertical bar (blank lines keep the
// bar without trailing space).
func (r *Renderer) barLines(body []string) []string {
	out := styleLines(body, r.styles.Thinking.Text, gutter+tailBar)
	for i, l := range out {
		if l == "" {
			out[i] = gutter + strings.TrimRight(tailBar, " ")
		}
	}
	return out
}

// thinkingHeader is the one-line summary of a thinking block: "Thinking…
// 3s" while live, "Thought for 12s" after ("Thought briefly" under a
// second), and just "Thought" for a block never seen live (history: AHP
// records no per-part timing).
func (r *Renderer) thinkingHeader(b *reducer.Block, live bool, t blockTimes, v ViewOpts) string {
	var s string
	switch {
	case live:
		s = thinkingIcon + " Thinking…"
		if d, ok := t.liveFor(v.Now); ok {
			s += " " + fmtSeconds(d)
		}
	default:
		s = thinkingIcon + " Thought"
		if d, ok := t.took(); ok {
			if d < time.Second {
				s += " briefly"
			} else {
				s += " for " + fmtSeconds(d)
			}
		}
	}
	if b.Redacted {
		s += " (redacted)"
	}
	return s
}

// lastLinesSource returns a suffix of text, starting at a line start, that
// is long enough to fill n wrapped lines of width columns, so the tail view
// never wraps the whole text.
func lastLinesSource(text string, n, width int) string {
	need := n * (width*4 + 4) // generous: wide runes take up to 4 bytes
	if len(text) <= need {
		return text
	}
	cut := len(text) - need
	if i := strings.IndexByte(text[cut:], '\n'); i >= 0 && cut+i+1 < len(text) {
		return text[cut+i+1:]
	}
	// One very long line: start at a rune boundary.
	for cut < len(text) && text[cut]&0xC0 == 0x80 {
		cut++
	}
	return text[cut:]
}

// truncatePlain cuts plain text to width columns with an ellipsis.
func truncatePlain(s string, width int) string {
	return truncateLine(s, max(width, 1))
}
