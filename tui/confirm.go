package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
)

// confirmDialog asks a yes/no question; yes emits onYes as a message.
type confirmDialog struct {
	km       keymap.Confirm
	question string
	onYes    tea.Msg
}

func newConfirm(km keymap.Confirm, question string, onYes tea.Msg) *confirmDialog {
	return &confirmDialog{km: km, question: question, onYes: onYes}
}

// Update: y/enter confirms, n/esc closes.
func (c *confirmDialog) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil, resultNone
	}
	switch {
	case key.Matches(k, c.km.Yes):
		m := c.onYes
		return c, func() tea.Msg { return m }, resultClose
	case key.Matches(k, c.km.No):
		return c, nil, resultClose
	}
	return c, nil, resultNone
}

// View draws the question.
func (c *confirmDialog) View(st *Styles, width, _ int) string {
	inner := max(20, min(width, 70)-4)
	body := ansi.Wordwrap(st.Dialog.Title.Render(c.question), inner, "") + "\n\n" +
		st.Dialog.Key.Render("y") + " yes   " + st.Dialog.Key.Render("n/esc") + " no"
	return st.Dialog.Box.Width(inner + 4).Render(body)
}
