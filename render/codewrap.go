package render

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Long lines of code, terminal output and diffs.
//
// They wrap rather than truncate: what the user approves (a command, an
// edit) must be visible in full. A line breaks after the last space that
// fits (keeping its indentation on the first row), or, for a token longer
// than the row, at the column. Continuation rows carry contMark in the
// column just left of the text — the column a diff uses for its +/- sign —
// so a wrapped row is never mistaken for a line of its own, and a diff
// keeps its colour on every row.

// contMark marks a continuation row of a wrapped line.
const contMark = "↪"

// appendDiffRows appends diff line l (its sign, then the text) wrapped
// into rows of inner columns: the sign stays in its column, continuation
// rows show contMark there, all in the line's style.
func appendDiffRows(out []string, l string, inner int, style lipgloss.Style) []string {
	for i, p := range wrapCode(l[1:], inner-1) {
		sign := l[:1]
		if i > 0 {
			sign = contMark
		}
		out = append(out, detailIndent+"  "+style.Render(sign+p))
	}
	return out
}

// MaxLineBytes caps the bytes of one line of code, terminal output or diff
// that are laid out: the rest is summarised on a marker row, so a hostile
// multi-megabyte line costs a bounded number of rows.
const MaxLineBytes = 64 << 10

// capLineBytes cuts every line of s longer than MaxLineBytes, ending it
// with a note of how much was left out (text that is wrapped as prose).
func capLineBytes(s string) string {
	if len(s) <= MaxLineBytes {
		return s
	}
	var b strings.Builder
	for rest := s; rest != ""; {
		l := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			l = rest[:i+1]
		}
		rest = rest[len(l):]
		if body := strings.TrimSuffix(l, "\n"); len(body) > MaxLineBytes {
			cut := MaxLineBytes
			for cut > 0 && !utf8.RuneStart(body[cut]) {
				cut--
			}
			b.WriteString(body[:cut])
			b.WriteString(" … " + strconv.Itoa(len(body)-cut) + " more bytes on this line not shown")
			b.WriteString(l[len(body):])
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// wrapCode breaks a sanitised plain line (no escapes) into rows of at most
// limit columns, in one pass over the line (at most MaxLineBytes of it; a
// marker row says how much more there is).
func wrapCode(l string, limit int) []string {
	limit = max(limit, 1)
	rest := 0
	if len(l) > MaxLineBytes {
		cut := MaxLineBytes
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		rest = len(l) - cut
		l = l[:cut]
	}
	rows := wrapCodeRows(l, limit)
	if rest > 0 {
		rows = append(rows, ansi.Truncate("… "+strconv.Itoa(rest)+" more bytes on this line not shown", limit, "…"))
	}
	return rows
}

// wrapCodeRows is wrapCode without the byte cap. A row breaks after the
// last space that fits when that leaves at least a third of the row used
// (never inside the first row's indentation), else at the column; a
// cluster wider than the row gets a row of its own.
func wrapCodeRows(l string, limit int) []string {
	var rows []string
	first := true
	for {
		// Scan one row: end is the byte after the last cluster that fits.
		end, w, sp, spW := 0, 0, -1, 0
		indent := 0
		if first {
			indent = len(l) - len(strings.TrimLeft(l, " "))
		}
		over := false
		for end < len(l) {
			n, cw := nextCluster(l[end:])
			if w+cw > limit {
				if end == 0 { // wider than the row: alone on it
					end, w = n, cw
				}
				over = true
				break
			}
			if l[end] == ' ' && end > indent {
				sp, spW = end, w
			}
			end += n
			w += cw
		}
		if !over {
			if l != "" || first {
				rows = append(rows, l)
			}
			return rows
		}
		cut := end
		if sp > 0 && spW >= limit/3 {
			cut = sp
		}
		rows = append(rows, strings.TrimRight(l[:cut], " "))
		l = strings.TrimLeft(l[cut:], " ")
		first = false
		if l == "" {
			return rows
		}
	}
}

// nextCluster returns the byte length and display width of the first
// grapheme cluster of s (ASCII fast path).
func nextCluster(s string) (n, width int) {
	if s[0] < utf8.RuneSelf && (len(s) == 1 || s[1] < utf8.RuneSelf) {
		return 1, 1
	}
	c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	return max(len(c), 1), w
}
