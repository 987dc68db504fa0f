package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// renamePrompt asks for a session's new title.
type renamePrompt struct {
	km      keymap.SignIn
	session string
	in      textinput.Model
	err     string
}

func newRenamePrompt(km keymap.SignIn, session, title string, st *Styles) *renamePrompt {
	in := newTextInput(st)
	in.Prompt = "title › "
	in.CharLimit = 200
	in.SetValue(render.Sanitize(title))
	in.CursorEnd()
	in.Focus()
	return &renamePrompt{km: km, session: session, in: in}
}

// Update: enter renames (session/titleChanged), esc cancels.
func (r *renamePrompt) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, r.km.Cancel):
			return r, nil, resultClose
		case key.Matches(k, r.km.Submit):
			t := strings.TrimSpace(r.in.Value())
			if t == "" {
				r.err = "A title cannot be empty."
				return r, nil, resultNone
			}
			return r, emit(sessionActionMsg{Session: r.session, Action: &ahpwire.SessionTitleChanged{Title: t}, What: "rename session"}), resultClose
		}
	}
	var cmd tea.Cmd
	r.in, cmd = r.in.Update(msg)
	return r, cmd, resultNone
}

// View draws the prompt.
func (r *renamePrompt) View(st *Styles, width, height int) string {
	inner := max(24, min(width, 70)-4)
	lines := []string{st.Dialog.Title.Render("Rename session"), "", r.in.View()}
	if r.err != "" {
		lines = append(lines, st.Dialog.Error.Render(r.err))
	}
	lines = append(lines, "")
	lines = append(lines, keyHints(st, inner, r.km.Submit.Help().Key, "rename", r.km.Cancel.Help().Key, "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
