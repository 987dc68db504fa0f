package render

import (
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

// wrapCode breaks a sanitised plain line (no escapes) into rows of at most
// limit columns.
func wrapCode(l string, limit int) []string {
	limit = max(limit, 1)
	if ansi.StringWidth(l) <= limit {
		return []string{l}
	}
	var rows []string
	first := true
	for ansi.StringWidth(l) > limit {
		head := ansi.Truncate(l, limit, "")
		if head == "" { // a wide character in a one-column row
			_, n := utf8.DecodeRuneInString(l)
			head = l[:n]
		}
		cut := len(head)
		indent := 0
		if first {
			indent = len(l) - len(strings.TrimLeft(l, " "))
		}
		// Break at a space when it leaves at least a third of the row used.
		if sp := strings.LastIndexByte(head, ' '); sp > indent && ansi.StringWidth(head[:sp]) >= limit/3 {
			cut = sp
		}
		rows = append(rows, strings.TrimRight(l[:cut], " "))
		l = strings.TrimLeft(l[cut:], " ")
		first = false
	}
	if l != "" {
		rows = append(rows, l)
	}
	return rows
}
