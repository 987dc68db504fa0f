package render

import "strings"

// Very large markdown texts.
//
// Glamour lays out about 3 MB of markdown per second on this machine, so a
// 32 MiB reply would hold the UI thread for ten seconds, and a 4 MiB delta
// more than a second. The completed top-level blocks of a text that start
// beyond its first PlainAfter bytes are therefore laid out as wrapped plain
// text (sanitised, soft line breaks kept as lines), which costs a few
// milliseconds per megabyte. The choice depends only on the block's offset
// in the text, so a finished text still renders the same as if it had been
// rendered whole, and a text that never grows past PlainAfter is rendered
// exactly as before.

// PlainAfter is the offset in a markdown text after which completed blocks
// are laid out as plain wrapped text instead of through glamour.
const PlainAfter = 256 << 10

// plainChunkLines lays out one completed block of raw markdown as wrapped
// body text (the terminal's default colour) in the gutter. fit is the
// longest line when every line took the fast path (the lines are then the
// same at any width leaving fit columns), else 0: a resize keeps such
// chunks instead of laying them out again.
func (e *markdownEngine) plainChunkLines(src string, width int) (lines []string, fit int) {
	src = strings.Trim(src, "\n")
	if src == "" {
		return nil, 0
	}
	w := max(1, width-len(gutter))
	fast := true
	for line := range strings.SplitSeq(src, "\n") {
		if len(line) <= w && isPlainASCII(line) {
			// Fast path: nothing to sanitise, measure or wrap.
			lines = append(lines, line)
			fit = max(fit, len(line))
			continue
		}
		fast = false
		wrapped := wrapText(Sanitize(line), w)
		if len(wrapped) == 0 {
			wrapped = []string{""}
		}
		lines = append(lines, wrapped...)
	}
	for i, l := range lines {
		if l != "" {
			lines[i] = gutter + l
		}
	}
	if !fast {
		return lines, 0
	}
	return lines, max(fit, 1)
}
