package app

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// Dispatch sends a on channel through the attached backend, when AHP's
// rules allow it in the state the Mirror holds (MayDispatch, mayi.go);
// else it says why not.
//
// The order is the client's (ahpclient.Client.Queue): Dispatch queues a
// now, in Update (memory only), and the command it returns flushes the
// queue. Bubble Tea runs commands on goroutines of their own, in any
// order, but the host gets the actions in the order Update dispatched
// them: keys typed into a terminal arrive as typed, a cancel after the
// message it cancels, one viewer's release before the next viewer's claim.
func (c *App) Dispatch(channel string, a ahpwire.Action, what string) tea.Cmd {
	if err := c.MayDispatch(channel, a); err != nil {
		return refused(what, err)
	}
	if c.Backend == nil {
		return refused(what, errors.New("not connected to a host"))
	}
	b := c.Backend
	seq, err := b.Queue(channel, a)
	return func() tea.Msg {
		if err == nil {
			err = b.Flush(seq)
		}
		if err != nil {
			err = fmt.Errorf("%s: %w", what, err)
		}
		return DispatchedMsg{Channel: channel, ClientSeq: seq, What: what, Action: a, Err: err}
	}
}

// Sender is the attached backend's ordered sender for dialogs (nil without
// a backend): Dispatch.
func (c *App) Sender() dialog.Sender {
	if c.Backend == nil {
		return nil
	}
	return c.Dispatch
}
