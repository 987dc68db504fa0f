package uikit

import (
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// Text inputs take their colours from the palette (through Styles.Input)
// and use a steady (non-blinking) cursor: no timer wakes the program while
// idle, which keeps SSH traffic and CPU at zero when nothing happens.

// StyleTextarea applies the palette to the composer's textarea.
func StyleTextarea(ta *textarea.Model, st *Styles) {
	s := ta.Styles()
	plain := lipgloss.NewStyle()
	for _, ss := range []*textarea.StyleState{&s.Focused, &s.Blurred} {
		ss.Base = plain
		ss.CursorLine = plain // no highlighted (black) current line
		ss.CursorLineNumber = st.Input.Placeholder
		ss.LineNumber = st.Input.Placeholder
		ss.EndOfBuffer = st.Input.Placeholder
		ss.Placeholder = st.Input.Placeholder
		ss.Prompt = st.Input.Prompt
		ss.Text = st.Input.Text
	}
	s.Blurred.Prompt = st.Input.Blurred
	s.Blurred.Text = st.Input.Blurred
	s.Cursor.Color = st.Input.Cursor
	s.Cursor.Blink = false
	ta.SetStyles(s)
}

// StyleTextInput applies the palette to a one-line text input.
func StyleTextInput(ti *textinput.Model, st *Styles) {
	s := ti.Styles()
	for _, ss := range []*textinput.StyleState{&s.Focused, &s.Blurred} {
		ss.Prompt = st.Input.Prompt
		ss.Text = st.Input.Text
		ss.Placeholder = st.Input.Placeholder
		ss.Suggestion = st.Input.Placeholder
	}
	s.Blurred.Prompt = st.Input.Blurred
	s.Blurred.Text = st.Input.Blurred
	s.Cursor.Color = st.Input.Cursor
	s.Cursor.Blink = false
	ti.SetStyles(s)
}

// NewTextInput builds a text input in the palette's colours.
func NewTextInput(st *Styles) textinput.Model {
	ti := textinput.New()
	StyleTextInput(&ti, st)
	return ti
}
