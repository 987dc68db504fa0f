package app

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// Outbox dispatches a backend's actions in the order Update produced
// them. Each action is its own tea.Cmd, and Bubble Tea runs commands on
// goroutines of their own: two keys typed quickly into a terminal could
// otherwise reach the host swapped ("ls" arriving as "sl"), and a cancel
// pressed right after sending could overtake the message it cancels.
// Update appends to the queue (memory only); every command then sends the
// queue's head, one at a time, so the n-th command to run sends the n-th
// action whichever goroutine it is on.
type Outbox struct {
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

// NewOutbox makes the outbox of b (its sends bounded by ctx).
func NewOutbox(ctx context.Context, b Backend) *Outbox {
	return &Outbox{ctx: ctx, b: b}
}

// Send queues a on channel and returns the command that dispatches the
// queue's head (a dialog.Sender).
func (o *Outbox) Send(channel string, a ahpwire.Action, what string) tea.Cmd {
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

// Dispatch sends a on channel through the attached backend, after every
// action dispatched before it, when AHP's rules allow it in the state the
// Mirror holds (MayDispatch, mayi.go); else it says why not.
func (c *App) Dispatch(channel string, a ahpwire.Action, what string) tea.Cmd {
	if err := c.MayDispatch(channel, a); err != nil {
		return refused(what, err)
	}
	return c.outboxFor().Send(channel, a, what)
}

// Sender is the attached backend's ordered sender for dialogs (nil without
// a backend): Dispatch.
func (c *App) Sender() dialog.Sender {
	if c.Backend == nil {
		return nil
	}
	c.outboxFor() // the backend's, made now: a viewer's claim follows what was sent before it
	return c.Dispatch
}

// outboxFor is the attached backend's outbox: one per backend, kept across
// screens and viewers, so a release from one terminal viewer and a claim
// from the next keep their order too.
func (c *App) outboxFor() *Outbox {
	if c.Out == nil || c.Out.b != c.Backend {
		c.Out = NewOutbox(c.Ctx, c.Backend)
	}
	return c.Out
}
