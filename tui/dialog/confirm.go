package dialog

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Confirm asks a yes/no question; yes emits onYes as a message.
type Confirm struct {
	km       keymap.Confirm
	question string
	onYes    tea.Msg
}

// NewConfirm asks question; yes emits onYes.
func NewConfirm(km keymap.Confirm, question string, onYes tea.Msg) *Confirm {
	return &Confirm{km: km, question: question, onYes: onYes}
}

// Update: y/enter confirms, n/esc closes.
func (c *Confirm) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, c.km.Yes):
		m := c.onYes
		return c, func() tea.Msg { return m }, uikit.ResultClose
	case key.Matches(k, c.km.No):
		return c, nil, uikit.ResultClose
	}
	return c, nil, uikit.ResultNone
}

// View draws the question.
func (c *Confirm) View(st *uikit.Styles, width, _ int) string {
	inner := max(20, min(width, 70)-4)
	body := ansi.Wordwrap(st.Dialog.Title.Render(c.question), inner, "") + "\n\n" +
		st.Dialog.Key.Render("y") + " yes   " + st.Dialog.Key.Render("n/esc") + " no"
	return st.Dialog.Box.Width(inner + 4).Render(body)
}
