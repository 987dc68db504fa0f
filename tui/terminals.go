package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/dialog"
)

// The host's terminals: the viewer (dialog.TermViewer) opens from the chat
// (f7, every root terminal) or on a tool block's terminal (enter claims it
// for typing); it reads and pins them through the side channels
// (sidechannels.go), which implement dialog.TermSource.

// openTerminalMsg asks the root model to open the terminal viewer on one
// terminal (a focused tool block's) and claim it for typing.
type openTerminalMsg struct{ uri string }

// clientIDer is implemented by backends that know their AHP clientId
// (*ahpclient.Client does): a terminal claim names it.
type clientIDer interface{ ClientID() string }

// clientIDOf is b's clientId ("" when it has none).
func clientIDOf(b Backend) string {
	if c, ok := b.(clientIDer); ok {
		return c.ClientID()
	}
	return ""
}

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
	v, cmd := dialog.NewTermViewerOn(m.c.ext, m.c.km.Terminal, uri)
	v.Wire(m.c.km.TermInput, m.c.sender(), clientIDOf(m.c.backend))
	v.Fit(m.width, m.bodyHeight())
	m.overlays = append(m.overlays, v)
	return tea.Batch(cmd, v.Claim())
}

// openTermViewer opens the viewer of the host's terminals (f7).
func (m *Model) openTermViewer() tea.Cmd {
	km := &m.c.km
	v, cmd := dialog.NewTermViewer(m.c.ext, km.Terminal)
	v.Wire(km.TermInput, m.c.sender(), clientIDOf(m.c.backend))
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

// RootTerminals is the host's terminal catalogue (dialog.TermSource).
func (x *extChannels) RootTerminals() []ahpwire.TerminalInfo { return x.rootTerms }

// LiveTerminal is uri's emulator once its snapshot arrived.
func (x *extChannels) LiveTerminal(uri string) *render.LiveTerminal {
	if t := x.terms[uri]; t != nil && t.ready {
		return t.lt
	}
	return nil
}

// Pin keeps uri subscribed while the viewer shows it.
func (x *extChannels) Pin(uri string, pty bool) tea.Cmd { return x.pin(uri, pty) }

// Unpin lets go of a pinned uri.
func (x *extChannels) Unpin(uri string) tea.Cmd { return x.unpin(uri) }

// ClaimRejected is why the host refused this client's last claim of uri.
func (x *extChannels) ClaimRejected(uri string) string { return x.claimRejected[uri] }

// ClearClaimRejected forgets a refused claim of uri.
func (x *extChannels) ClearClaimRejected(uri string) { delete(x.claimRejected, uri) }
