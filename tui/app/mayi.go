package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/uikit"
)

// "May I": before an action leaves, AHP's own rules (package ahpstate, the
// checks the host validates dispatches with) are asked against the
// Mirror's state of its channel, so the UI never offers, and never sends,
// what the host would refuse: a resume, a steering or queued message, a
// cancel, an approval or answer, a session change. A channel the Mirror
// does not hold (its snapshot has not come) is the host's to judge, and so
// are terminals: a claim is checked by the host against the state it makes,
// and typed keys follow their claim before its echo has come.

// clientIDer is implemented by backends that know their AHP clientId
// (*ahpclient.Client does): a terminal claim names it.
type clientIDer interface{ ClientID() string }

// ClientID is the attached backend's AHP clientId ("" when it has none).
func (c *App) ClientID() string {
	if b, ok := c.Backend.(clientIDer); ok {
		return b.ClientID()
	}
	return ""
}

// MayDispatch returns why AHP's rules refuse a on channel in the state the
// Mirror holds (an *ahpstate.Rejection), nil when they allow it or the
// Mirror does not hold the channel (or it is a terminal's).
func (c *App) MayDispatch(channel string, a ahpwire.Action) error {
	if c.Mirror == nil {
		return nil
	}
	switch c.Mirror.KindOf(channel) {
	case ahpstate.ScopeChat:
		if cs, ok := c.Mirror.Chat(channel); ok {
			return ahpstate.ValidateChatAction(cs, a, c.ClientID())
		}
	case ahpstate.ScopeSession:
		if ss, ok := c.Mirror.Session(channel); ok {
			return ahpstate.ValidateSessionAction(ss, a, c.ClientID())
		}
	}
	return nil
}

// refused is the notice for an action AHP's rules refuse (MayDispatch).
func refused(what string, err error) tea.Cmd {
	return uikit.Notice("cannot "+what+": "+err.Error(), true)
}
