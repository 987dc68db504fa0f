package tui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// outbox dispatches a backend's actions in the order Update produced
// them. Each action is its own tea.Cmd, and Bubble Tea runs commands on
// goroutines of their own: two keys typed quickly into a terminal could
// otherwise reach the host swapped ("ls" arriving as "sl"), and a cancel
// pressed right after sending could overtake the message it cancels.
// Update appends to the queue (memory only); every command then sends the
// queue's head, one at a time, so the n-th command to run sends the n-th
// action whichever goroutine it is on.
type outbox struct {
	ctx context.Context
	b   Backend

	sendMu sync.Mutex // held while the head is dispatched: one send at a time
	mu     sync.Mutex // guards q
	q      []queuedAction
}

type queuedAction struct {
	channel, what string
	a             ahpwire.Action
}

func newOutbox(ctx context.Context, b Backend) *outbox {
	return &outbox{ctx: ctx, b: b}
}

// send queues a on channel and returns the command that dispatches the
// queue's head (a dialog.Sender).
func (o *outbox) send(channel string, a ahpwire.Action, what string) tea.Cmd {
	o.mu.Lock()
	o.q = append(o.q, queuedAction{channel: channel, what: what, a: a})
	o.mu.Unlock()
	return func() tea.Msg {
		o.sendMu.Lock()
		defer o.sendMu.Unlock()
		o.mu.Lock()
		head := o.q[0]
		o.q[0] = queuedAction{}
		o.q = o.q[1:]
		o.mu.Unlock()
		return dispatch(o.ctx, o.b, head.channel, head.a, head.what)()
	}
}

// dispatch sends a on channel through the attached backend, after every
// action dispatched before it.
func (c *common) dispatch(channel string, a ahpwire.Action, what string) tea.Cmd {
	return c.outboxFor().send(channel, a, what)
}

// sender is the attached backend's ordered sender for dialogs (nil without
// a backend).
func (c *common) sender() dialog.Sender {
	if c.backend == nil {
		return nil
	}
	return c.outboxFor().send
}

// outboxFor is the attached backend's outbox: one per backend, kept across
// screens and viewers, so a release from one terminal viewer and a claim
// from the next keep their order too.
func (c *common) outboxFor() *outbox {
	if c.out == nil || c.out.b != c.backend {
		c.out = newOutbox(c.ctx, c.backend)
	}
	return c.out
}
