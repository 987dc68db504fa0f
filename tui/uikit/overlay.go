package uikit

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Result tells the root what to do with an overlay after Update.
type Result int

const (
	ResultNone  Result = iota // keep it open
	ResultClose               // pop it off the stack
)

// Overlay is a modal on top of the current screen (help, confirm, approval,
// input form). Overlays form a stack; the top one receives key presses.
type Overlay interface {
	Update(msg tea.Msg) (Overlay, tea.Cmd, Result)
	View(st *Styles, width, height int) string
}

// KeyHints lays out "key action" pairs in as many lines of width as needed.
func KeyHints(st *Styles, width int, pairs ...string) []string {
	var lines []string
	cur, curW := "", 0
	for i := 0; i+1 < len(pairs); i += 2 {
		item := st.Dialog.Key.Render(pairs[i]) + " " + pairs[i+1]
		w := ansi.StringWidth(pairs[i]) + 1 + ansi.StringWidth(pairs[i+1])
		if curW > 0 && curW+2+w > width {
			lines = append(lines, cur)
			cur, curW = "", 0
		}
		if curW > 0 {
			cur += "  "
			curW += 2
		}
		cur += item
		curW += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// Emit is a command that delivers m: how a component hands an intent to
// its parent.
func Emit(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

// NoticeMsg shows a transient line in the status bar.
type NoticeMsg struct {
	Text  string
	IsErr bool
}

// Notice is a command that shows a notice (an error when isErr).
func Notice(text string, isErr bool) tea.Cmd {
	return func() tea.Msg { return NoticeMsg{Text: text, IsErr: isErr} }
}

// OneLine keeps the first line of s, marking a cut with " …".
func OneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Plural formats "1 file", "2 files".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
