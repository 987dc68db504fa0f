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

// MaxCommentBytes bounds a comment typed here (the host accepts more; a
// one-line prompt is no place for an essay).
const MaxCommentBytes = 4000

// Comment asks for the text of a review comment, or of a reply to one,
// and dispatches it on the session's annotations channel: a new thread
// with annotations/set, a reply with annotations/entrySet.
type Comment struct {
	km    keymap.SignIn
	send  Sender
	title string
	// channel is the annotations channel; build makes the action from the
	// typed text.
	channel string
	build   func(text string) ahpwire.Action
	in      textinput.Model
	err     string
}

// NewComment asks for a new comment titled title; build turns the text
// into the action dispatched on channel.
func NewComment(km keymap.SignIn, send Sender, st *uikit.Styles, channel, title string, build func(string) ahpwire.Action) *Comment {
	in := uikit.NewTextInput(st)
	in.Prompt = "› "
	in.CharLimit = MaxCommentBytes
	in.Focus()
	return &Comment{km: km, send: send, title: title, channel: channel, build: build, in: in}
}

// Update: enter dispatches, esc cancels.
func (c *Comment) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, c.km.Cancel):
			return c, nil, uikit.ResultClose
		case key.Matches(k, c.km.Submit):
			t := strings.TrimSpace(c.in.Value())
			if t == "" {
				c.err = "A comment cannot be empty."
				return c, nil, uikit.ResultNone
			}
			return c, c.send(c.channel, c.build(t), "comment"), uikit.ResultClose
		}
	}
	var cmd tea.Cmd
	c.in, cmd = c.in.Update(msg)
	return c, cmd, uikit.ResultNone
}

// View draws the prompt.
func (c *Comment) View(st *uikit.Styles, width, height int) string {
	inner := max(24, min(width, 80)-4)
	lines := []string{st.Dialog.Title.Render(render.Sanitize(c.title)), "", c.in.View()}
	if c.err != "" {
		lines = append(lines, st.Dialog.Error.Render(c.err))
	}
	lines = append(lines, "")
	lines = append(lines, uikit.KeyHints(st, inner, c.km.Submit.Help().Key, "post", c.km.Cancel.Help().Key, "cancel")...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
