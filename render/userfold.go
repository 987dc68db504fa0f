package render

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/reducer"
)

// A long user message (a big paste) is folded in the transcript, as the
// composer shows it as a chip: its first lines and "[pasted 5,000 lines]";
// expanding the block (enter on it) shows it whole.
const (
	// UserFoldLines is the most lines a user message shows unfolded.
	UserFoldLines = 40
	// userFoldHead is how many of its lines a folded message shows.
	userFoldHead = 4
)

// LineCount counts the lines of s as people count them: a final newline
// ends the last line rather than starting an empty one ("a\nb\n" is 2).
func LineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// UserFoldable reports whether a user message's text block is folded
// unless expanded.
func UserFoldable(m *reducer.Message, b *reducer.Block) bool {
	return m != nil && b != nil && m.Role == reducer.RoleUser && b.Kind == reducer.KindText &&
		LineCount(b.Text()) > UserFoldLines
}

// GroupDigits writes n with thousands separators (5000 → "5,000").
func GroupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// userFolded renders a folded user text: its first lines, then the fold.
func (r *Renderer) userFolded(text string, width int) []string {
	head, at := text, 0
	for range userFoldHead {
		j := strings.IndexByte(text[at:], '\n')
		if j < 0 {
			break
		}
		at += j + 1
		head = text[:at-1]
	}
	lines := textBlock(head, width, r.styles.User.Text, gutter)
	fold := "[pasted " + GroupDigits(LineCount(text)) + " lines] — enter on it expands"
	return append(lines, gutter+r.styles.Muted.Render(truncatePlain(fold, width-len(gutter))))
}
