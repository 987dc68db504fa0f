package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/dialog"
)

// The host's terminals: the viewer (dialog.TermViewer) opens from the chat
// (f7, every root terminal) or on a tool block's terminal (enter claims it
// for typing); it reads and pins them through the side channels
// (app/channels.go), which implement dialog.TermSource.

// typingTerminal reports whether the top overlay is a terminal the user
// types into: it then gets every key, ctrl+c included.
func (m *Model) typingTerminal() bool {
	if n := len(m.overlays); n > 0 {
		v, ok := m.overlays[n-1].(*dialog.TermViewer)
		return ok && v.Typing()
	}
	return false
}

// openTerminal opens the viewer on uri and claims it.
func (m *Model) openTerminal(uri string) tea.Cmd {
	v, cmd := dialog.NewTermViewerOn(m.c.Channels, m.c.KM.Terminal, uri)
	v.Wire(m.c.KM.TermInput, m.c.Sender(), m.c.ClientID())
	v.Fit(m.width, m.bodyHeight())
	m.overlays = append(m.overlays, v)
	return tea.Batch(cmd, v.Claim())
}

// openTermViewer opens the viewer of the host's terminals (f7).
func (m *Model) openTermViewer() tea.Cmd {
	km := &m.c.KM
	v, cmd := dialog.NewTermViewer(m.c.Channels, km.Terminal)
	v.Wire(km.TermInput, m.c.Sender(), m.c.ClientID())
	v.Fit(m.width, m.bodyHeight())
	m.overlays = append(m.overlays, v)
	return cmd
}

// fitTermViewers tells the open terminal viewers the window's new size: a
// terminal the user types into is resized to fit (dialog/termsize.go).
func (m *Model) fitTermViewers() tea.Cmd {
	var cmds []tea.Cmd
	for _, ov := range m.overlays {
		if v, ok := ov.(*dialog.TermViewer); ok {
			cmds = append(cmds, v.Fit(m.width, m.bodyHeight()))
		}
	}
	return tea.Batch(cmds...)
}
