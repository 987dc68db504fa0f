package render

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// gutter is the plain two-column indent every rendered block line starts
// with; the focused block gets Styles.GutterFocused instead.
const gutter = "  "

// focusMark is drawn in the gutter of the focused block.
const focusMark = "▌ "

// cleanRendered splits glamour output into lines, keeps only the escape
// sequences we trust (see filterLine), trims trailing padding and drops
// leading and trailing blank lines.
func cleanRendered(out string) []string {
	raw := strings.Split(out, "\n")
	lines := make([]string, 0, len(raw))
	for _, l := range raw {
		lines = append(lines, filterLine(l))
	}
	return trimBlankLines(lines)
}

// trimBlankLines drops leading and trailing lines that show nothing.
func trimBlankLines(lines []string) []string {
	for len(lines) > 0 && isBlankRendered(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && isBlankRendered(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func isBlankRendered(l string) bool {
	return strings.TrimSpace(ansi.Strip(l)) == ""
}

// filterLine is the output-side guard for text that went through a
// third-party renderer (glamour, chroma): it keeps SGR sequences (ESC [ …
// m) and OSC 8 hyperlinks, removes every other escape sequence and control
// character, and trims trailing spaces together with the styling that only
// served them (a single reset is kept so styles never leak).
func filterLine(l string) string {
	var out, tail strings.Builder
	out.Grow(len(l) / 2)
	hadEsc, openLink, dropLink := false, false, false
	for i := 0; i < len(l); {
		c := l[i]
		switch {
		case c == 0x1b:
			j, keep, link := scanTrusted(l, i)
			if keep && link {
				// Only safe hyperlinks are kept; a dropped one's text stays
				// as plain text, and so does its closing sequence.
				if target := linkTarget(l[i+2 : j]); target != "" {
					dropLink = !keepLink(l, j, target)
				}
				keep = !dropLink
				if linkTarget(l[i+2:j]) == "" {
					dropLink = false
				}
			}
			if keep {
				hadEsc = true
				if link {
					openLink = !strings.HasPrefix(l[i:j], "\x1b]8;;\x07") && !strings.HasPrefix(l[i:j], "\x1b]8;;\x1b\\")
				}
				tail.WriteString(l[i:j])
			}
			i = j
		case c == ' ':
			tail.WriteByte(' ')
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c == 0xc2 && i+1 < len(l) && l[i+1] >= 0x80 && l[i+1] <= 0x9f:
			i += 2 // C1 control encoded as UTF-8
		default:
			if tail.Len() > 0 {
				out.WriteString(tail.String())
				tail.Reset()
			}
			out.WriteByte(c)
			i++
		}
	}
	if hadEsc && tail.Len() > 0 && out.Len() > 0 {
		// Trailing padding dropped: close what it may have left open.
		if openLink {
			out.WriteString("\x1b]8;;\x07")
		}
		out.WriteString("\x1b[m")
	}
	return out.String()
}

// scanTrusted looks at the escape sequence starting at l[i] (an ESC) and
// returns its end, whether it is a trusted one (SGR or OSC 8), and whether it
// is an OSC 8 hyperlink.
func scanTrusted(l string, i int) (end int, keep, link bool) {
	if i+1 >= len(l) {
		return i + 1, false, false
	}
	switch l[i+1] {
	case '[':
		j := i + 2
		for j < len(l) && (l[j] >= '0' && l[j] <= '9' || l[j] == ';' || l[j] == ':') {
			j++
		}
		if j < len(l) && l[j] == 'm' {
			return j + 1, true, false
		}
		return skipCSI(l, i+2), false, false
	case ']':
		end := skipString(l, i+2)
		body := l[i+2 : end]
		if strings.HasPrefix(body, "8;") && printableBody(body) {
			return end, true, true
		}
		return end, false, false
	default:
		return skipEscape(l, i+1), false, false
	}
}

// printableBody reports whether an OSC body is properly terminated (BEL or
// ESC \) and holds no control characters before its terminator.
func printableBody(b string) bool {
	switch {
	case strings.HasSuffix(b, "\x07"):
		b = b[:len(b)-1]
	case strings.HasSuffix(b, "\x1b\\"):
		b = b[:len(b)-2]
	default:
		return false
	}
	for k := 0; k < len(b); k++ {
		c := b[k]
		if c < 0x20 || c == 0x7f || (c == 0xc2 && k+1 < len(b) && b[k+1] >= 0x80 && b[k+1] <= 0x9f) {
			return false
		}
	}
	return true
}

// wrapText wraps already sanitised plain text to width columns (words first,
// then hard breaks for long words) and returns its lines.
func wrapText(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	// ansi.Wrap lets a line end in hyphens past width ("aaaa bbbb -" at
	// width 10); cut such lines hard so nothing wraps in the terminal.
	for i := 0; i < len(lines); i++ {
		if ansi.StringWidth(lines[i]) > width {
			hard := strings.Split(ansi.Hardwrap(lines[i], width, true), "\n")
			lines = append(lines[:i], append(hard, lines[i+1:]...)...)
			i += len(hard) - 1
		}
	}
	return lines
}

// styleLines renders every line with st and prefixes it with indent.
func styleLines(lines []string, st lipgloss.Style, indent string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == "" {
			out[i] = ""
			continue
		}
		out[i] = indent + st.Render(l)
	}
	return out
}

// textBlock sanitises s, wraps it to width minus the indent and styles it.
func textBlock(s string, width int, st lipgloss.Style, indent string) []string {
	return styleLines(wrapText(Sanitize(s), width-ansi.StringWidth(indent)), st, indent)
}

// hangBlock is textBlock for a line that starts with a mark ("→ ", "[2] ",
// "1. ", "● "): the mark is drawn once and wrapped lines align under the
// text after it, so a narrow terminal never leaves the mark alone on a line
// or lets the text run under it. mark is trusted; s is sanitised.
func hangBlock(mark, s string, width int, st lipgloss.Style, indent string) []string {
	mw := ansi.StringWidth(mark)
	iw := ansi.StringWidth(indent)
	if width-iw-mw < 8 { // too narrow to hang: plain wrap
		return textBlock(mark+s, width, st, indent)
	}
	lines := wrapText(Sanitize(s), width-iw-mw)
	if len(lines) == 0 {
		return styleLines([]string{strings.TrimRight(mark, " ")}, st, indent)
	}
	pad := indent + strings.Repeat(" ", mw)
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case i == 0:
			out[i] = indent + st.Render(mark+l)
		case l == "":
			out[i] = ""
		default:
			out[i] = pad + st.Render(l)
		}
	}
	return out
}

// truncateLine cuts a line (which may contain SGR) to width columns with an
// ellipsis.
func truncateLine(l string, width int) string {
	if ansi.StringWidth(l) <= width {
		return l
	}
	return ansi.Truncate(l, width, "…")
}

// ansiHardwrap breaks a line at exactly limit columns.
func ansiHardwrap(s string, limit int) string { return ansi.Hardwrap(s, limit, true) }

// Output caps: long tool output is cut for display (the full content stays
// with the server, e.g. behind a terminal resource).
const (
	maxHeadLines = 400 // text, input and embedded content: first lines
	maxTailLines = 200 // terminal output: last lines
)

// capLines keeps the first (or, with fromEnd, the last) max lines of s and
// returns how many lines were left out.
func capLines(s string, limit int, fromEnd bool) (string, int) {
	n := strings.Count(s, "\n") + 1
	if n <= limit {
		return s, 0
	}
	if fromEnd {
		i := len(s)
		for range limit {
			i = strings.LastIndexByte(s[:i], '\n')
		}
		return s[i+1:], n - limit
	}
	i := -1
	for range limit {
		i += 1 + strings.IndexByte(s[i+1:], '\n')
	}
	return s[:i], n - limit
}
