package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// overlayResult tells the root what to do with an overlay after Update.
type overlayResult int

const (
	resultNone  overlayResult = iota // keep it open
	resultClose                      // pop it off the stack
)

// overlay is a modal on top of the current screen (help, confirm, approval,
// input form). Overlays form a stack; the top one receives key presses.
type overlay interface {
	Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult)
	View(st *Styles, width, height int) string
}

// keyHints lays out "key action" pairs in as many lines of width as needed.
func keyHints(st *Styles, width int, pairs ...string) []string {
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
