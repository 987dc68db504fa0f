package tui

import (
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
)

// A steady (non-blinking) cursor: no timer wakes the program while idle,
// which keeps SSH traffic and CPU at zero when nothing happens.

func steadyTextarea(ta *textarea.Model) {
	s := ta.Styles()
	s.Cursor.Blink = false
	ta.SetStyles(s)
}

func newTextInput() textinput.Model {
	ti := textinput.New()
	s := ti.Styles()
	s.Cursor.Blink = false
	ti.SetStyles(s)
	return ti
}
