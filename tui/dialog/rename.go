package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// SessionActionMsg asks the root to dispatch a session action (the
// rename prompt's, the picker's archive and read-state keys').
type SessionActionMsg struct {
	Session string
	Action  ahpwire.Action
	What    string
}

// Rename asks for a session's new title.
type Rename struct {
	km      keymap.SignIn
	session string
	in      textinput.Model
	err     string
}

// NewRename asks for session's new title, title filled in.
func NewRename(km keymap.SignIn, session, title string, st *uikit.Styles) *Rename {
	in := uikit.NewTextInput(st)
	in.Prompt = "title › "
	in.CharLimit = 200
	in.SetValue(render.Sanitize(title))
	in.CursorEnd()
	in.Focus()
	return &Rename{km: km, session: session, in: in}
}

// Update: enter renames (session/titleChanged), esc cancels.
func (r *Rename) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, r.km.Cancel):
			return r, nil, uikit.ResultClose
		case key.Matches(k, r.km.Submit):
			t := strings.TrimSpace(r.in.Value())
			if t == "" {
				r.err = "A title cannot be empty."
				return r, nil, uikit.ResultNone
			}
			return r, uikit.Emit(SessionActionMsg{Session: r.session, Action: &ahpwire.SessionTitleChanged{Title: t}, What: "rename session"}), uikit.ResultClose
		}
	}
	var cmd tea.Cmd
	r.in, cmd = r.in.Update(msg)
	return r, cmd, uikit.ResultNone
}

// View draws the prompt.
func (r *Rename) View(st *uikit.Styles, width, height int) string {
	inner := max(24, min(width, 70)-4)
	lines := []string{st.Dialog.Title.Render("Rename session"), "", r.in.View()}
	if r.err != "" {
		lines = append(lines, st.Dialog.Error.Render(r.err))
	}
	lines = append(lines, "")
	lines = append(lines, uikit.KeyHints(st, inner, r.km.Submit.Help().Key, "rename", r.km.Cancel.Help().Key, "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
