package tui

import tea "charm.land/bubbletea/v2"

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
