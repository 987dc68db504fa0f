package render

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
)

// TabWidth is the tab stop used by [Sanitize]: a tab advances to the next
// column that is a multiple of 4. Four keeps indented code compact in a
// narrow pane; [SanitizeTabs] takes another stop (terminal output uses
// [TerminalTabWidth]).
const TabWidth = 4

// TerminalTabWidth is the tab stop used for terminal output (tool results of
// kind terminal), where column layouts such as `ls` output assume 8.
const TerminalTabWidth = 8

// Sanitize makes one piece of server text safe to draw. It is the single
// sanitiser for all server text (markdown, thinking, tool input and output,
// titles, error messages). It:
//
//   - removes escape sequences whole: CSI (ESC [ and U+009B), OSC (ESC ] and
//     U+009D), DCS (ESC P, U+0090), SOS (ESC X, U+0098), PM (ESC ^, U+009E),
//     APC (ESC _, U+009F) — strings end at BEL, ST (ESC \ or U+009C), CAN or
//     SUB, or at the end of the text — and every other ESC sequence;
//   - turns CR LF into LF and shows every other C0 control and DEL as its
//     Unicode control picture (␍, ␇, ␡ …), so nothing is hidden or executed;
//   - replaces the remaining C1 controls (U+0080–U+009F) and invalid UTF-8
//     with U+FFFD;
//   - shows bidirectional formatting controls (U+202A–U+202E, U+2066–U+2069,
//     U+200E, U+200F, U+061C) as a visible tag such as "[U+202E]", so a
//     host cannot reorder what an approval prompt appears to say ("Trojan
//     Source"); the line and paragraph separators U+2028/U+2029 become '\n';
//   - expands tabs to spaces at stops of [TabWidth] columns (display width).
//
// The result contains no byte 0x1b, no code point in U+0080–U+009F, no C0
// control other than '\n', and is valid UTF-8. Sanitize is idempotent.
func Sanitize(s string) string { return SanitizeTabs(s, TabWidth) }

// SanitizeTabs is [Sanitize] with an explicit tab stop (values < 1 mean 1).
func SanitizeTabs(s string, tabWidth int) string {
	if tabWidth < 1 {
		tabWidth = 1
	}
	if isPlainASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	col := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			col++
			i++
			continue
		case r == '\n':
			b.WriteByte('\n')
			col = 0
		case r == '\t':
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CR LF: the LF that follows ends the line.
		case r == 0x1b:
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b:
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			i = skipString(s, i+size)
			continue
		case r < 0x20:
			b.WriteRune(0x2400 + r) // control pictures: ␀ … ␟
			col++
		case r == 0x7f:
			b.WriteRune(0x2421) // ␡
			col++
		case r >= 0x80 && r <= 0x9f:
			b.WriteRune(utf8.RuneError)
			col++
		case isBidiControl(r):
			tag := fmt.Sprintf("[U+%04X]", r)
			b.WriteString(tag)
			col += len(tag)
		case r == 0x2028 || r == 0x2029:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteString(s[i : i+size])
			col += displaywidth.Rune(r)
		}
		i += size
	}
	return b.String()
}

// isPlainASCII reports whether s holds only printable ASCII and newlines, the
// common case that needs no copy.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// skipEscape returns the index after the escape sequence whose ESC byte
// precedes s[j].
func skipEscape(s string, j int) int {
	if j >= len(s) {
		return j
	}
	c := s[j]
	switch {
	case c == '[':
		return skipCSI(s, j+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return skipString(s, j+1)
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then one final byte
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
			j++
		}
		if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
			j++
		}
		return j
	case c >= 0x30 && c <= 0x7e: // Fp, Fe, Fs: two bytes
		return j + 1
	default:
		// ESC followed by a control or non-ASCII: drop the ESC alone and let
		// the caller neutralise what follows.
		return j
	}
}

// skipCSI returns the index after a control sequence whose introducer ends
// just before s[j]: parameter and intermediate bytes (0x20–0x3f), then one
// final byte (0x40–0x7e). Any other byte aborts the sequence and is left for
// the caller.
func skipCSI(s string, j int) int {
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		j++
	}
	return j
}

// skipString returns the index after a control string (OSC, DCS, SOS, PM,
// APC) whose introducer ends just before s[j]. It ends at BEL, ESC \, U+009C,
// CAN or SUB; an ESC followed by anything else aborts the string and starts a
// new sequence (returned as the next index). Unterminated strings run to the
// end of s.
func skipString(s string, j int) int {
	for j < len(s) {
		switch c := s[j]; c {
		case 0x07, 0x18, 0x1a:
			return j + 1
		case 0x1b:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
			return j
		case 0xc2:
			if j+1 < len(s) && s[j+1] == 0x9c {
				return j + 2
			}
		}
		j++
	}
	return j
}

// isBidiControl reports whether r is a bidirectional formatting control:
// the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069,
// the marks U+200E and U+200F, and the Arabic letter mark U+061C.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
