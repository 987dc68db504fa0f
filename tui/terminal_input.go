package tui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// termOutbox dispatches a backend's terminal actions (claim, input,
// release) in the order Update produced them. Each action is its own
// tea.Cmd, and Bubble Tea runs commands on goroutines of their own: two
// keys typed quickly could otherwise reach the host swapped ("ls" arriving
// as "sl"). Update appends to the queue (memory only); every command then
// sends the queue's head, one at a time, so the n-th command to run sends
// the n-th action whichever goroutine it is on.
type termOutbox struct {
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

func newTermOutbox(ctx context.Context, b Backend) *termOutbox {
	return &termOutbox{ctx: ctx, b: b}
}

// send queues a on channel and returns the command that dispatches the
// queue's head (dialog.TermSender).
func (o *termOutbox) send(channel string, a ahpwire.Action, what string) tea.Cmd {
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

// termSender is the attached backend's ordered terminal sender (nil
// without a backend): one outbox per backend, kept across viewers, so a
// release from one viewer and a claim from the next keep their order too.
func (m *Model) termSender() dialog.TermSender {
	if m.c.backend == nil {
		return nil
	}
	if m.c.termOut == nil || m.c.termOut.b != m.c.backend {
		m.c.termOut = newTermOutbox(m.c.ctx, m.c.backend)
	}
	return m.c.termOut.send
}
