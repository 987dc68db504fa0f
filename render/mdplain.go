package render

import "strings"

// Very large markdown texts.
//
// Glamour lays out about 3 MB of markdown per second on this machine, so a
// 32 MiB reply would hold the UI thread for ten seconds, and a 4 MiB delta
// more than a second. The completed top-level blocks of a text that start
// beyond its first PlainAfter bytes, and any single block larger than
// PlainAfter (one huge code fence), are therefore laid out as wrapped plain
// text (sanitised, soft line breaks kept as lines), which costs a few
// milliseconds per megabyte, and only for the pages shown (plainpage.go).
// The choice depends only on the block's offset and size, so a finished
// text still renders the same as if it had been rendered whole, and a text
// that never grows past PlainAfter is rendered exactly as before.

// PlainAfter is the offset in a markdown text after which completed blocks
// are laid out as plain wrapped text instead of through glamour, and the
// size of a block above which it is, wherever it starts.
const PlainAfter = 256 << 10

// plainLines lays out a piece of raw markdown past PlainAfter as wrapped
// body text (the terminal's default colour) in the gutter, line by line as
// it is (see plainPage): every source line is sanitised and wrapped on its
// own, so the layout of a block is the same however it is cut into pieces.
func (e *markdownEngine) plainLines(src string, width int) []string {
	w := max(1, width-len(gutter))
	var lines []string
	for line := range strings.SplitSeq(src, "\n") {
		if len(line) <= w && isPlainASCII(line) {
			// Fast path: nothing to sanitise, measure or wrap.
			lines = append(lines, line)
			continue
		}
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
	return lines
}

// userLines lays out a piece of a long user text (see userSections) as
// textBlock lays out a whole one: each line sanitised, wrapped and styled.
func (e *markdownEngine) userLines(src string, width int) []string {
	w := width - len(gutter)
	var lines []string
	for line := range strings.SplitSeq(src, "\n") {
		if wrapped := wrapText(Sanitize(line), w); len(wrapped) > 0 {
			lines = append(lines, wrapped...)
		} else {
			lines = append(lines, "")
		}
	}
	return styleLines(lines, e.styles.User.Text, gutter)
}
