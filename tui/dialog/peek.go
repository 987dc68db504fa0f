package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// PeekLines is how many of a chat's last lines a peek shows.
const PeekLines = 12

// Peek shows a session of any host from the inbox without opening it: its
// title, host and state, and the last lines of its chat. The approval or
// question it waits for, if any, is prompted above it.
type Peek struct {
	km    keymap.Peek
	title string   // sanitised by NewPeek
	lines []string // sanitised by NewPeek
	note  string
	open  tea.Msg
}

// NewPeek builds the peek: title (host text, sanitised here), the chat's
// last lines (plain text, sanitised here), a note (what it waits for) and
// the message that opens its chat.
func NewPeek(km keymap.Peek, title string, lines []string, note string, open tea.Msg) *Peek {
	p := &Peek{km: km, title: uikit.OneLine(render.Sanitize(title)), note: uikit.OneLine(render.Sanitize(note)), open: open}
	for _, l := range lines {
		p.lines = append(p.lines, render.SanitizeLine(l, 400))
	}
	return p
}

// Update: enter opens the chat, esc closes.
func (p *Peek) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, p.km.Open):
		m := p.open
		return p, func() tea.Msg { return m }, uikit.ResultClose
	case key.Matches(k, p.km.Close):
		return p, nil, uikit.ResultClose
	}
	return p, nil, uikit.ResultNone
}

// View draws the peek.
func (p *Peek) View(st *uikit.Styles, width, _ int) string {
	inner := max(20, min(width, 100)-4)
	var b strings.Builder
	b.WriteString(ansi.Truncate(st.Dialog.Title.Render(p.title), inner, "…"))
	if p.note != "" {
		b.WriteString("\n" + ansi.Truncate(st.Dialog.Key.Render(p.note), inner, "…"))
	}
	b.WriteString("\n\n")
	if len(p.lines) == 0 {
		b.WriteString("(nothing said yet)\n")
	}
	for _, l := range p.lines {
		b.WriteString(ansi.Truncate(l, inner, "…") + "\n")
	}
	b.WriteString("\n" + strings.Join(uikit.KeyHints(st, inner, p.km.Open.Help().Key, "open the chat", p.km.Close.Help().Key, "close"), "\n"))
	return st.Dialog.Box.Width(inner + 4).Render(b.String())
}
