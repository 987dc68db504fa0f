package ahpclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/ahptui/ahptui/ahpwire"
)

// Dispatch sends action on channel as `dispatchAction` with a new clientSeq
// (monotonic for the life of the process) and tracks it in the outbox,
// reporting every change as an OutboxEvent:
//
//   - connected: written at once (Sent), then Confirmed or Rejected by its
//     echo;
//   - not connected (connecting/reconnecting): Held, and sent in order right
//     after the next successful (re)connection;
//   - the link drops before the echo: Uncertain — never re-sent
//     automatically; offer the user Resend;
//   - too large for the host (no chunking negotiated, or above its message
//     limit): Failed, and the error is returned (errors.Is
//     segment.ErrMessageTooLarge).
//
// Dispatch is Queue then Flush: it takes its place in the client's send
// order when called, after every action queued before it.
//
// The returned error is non-nil only when the action was not accepted at
// all (closed client, failed client, invalid input, too large).
func (c *Client) Dispatch(ctx context.Context, channel string, action ahpwire.Action) (uint64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	seq, err := c.Queue(channel, action)
	if err != nil {
		return 0, err
	}
	return seq, c.Flush(seq)
}

// Queue puts action on channel at the end of the client's send order and
// returns its clientSeq; Flush (or Dispatch, or the next reconnection)
// writes it. Queue touches memory only (never the network, never a lock a
// write holds), so a UI may call it from its update loop and flush from
// any goroutine later.
//
// The order is the client's one ordering guarantee for actions: the host
// receives them in the order Queue (or Dispatch) was called — the
// clientSeq order — whichever goroutines flush them and in whatever order
// those run, across a reconnection (held actions go first, in order) and
// across callers. Two keys typed into a terminal cannot arrive swapped,
// and a cancel cannot overtake the message it cancels.
func (c *Client) Queue(channel string, action ahpwire.Action) (uint64, error) {
	if channel == "" {
		return 0, errors.New("ahpclient: dispatch: empty channel")
	}
	if action == nil {
		return 0, errors.New("ahpclient: dispatch: nil action")
	}
	c.mu.Lock()
	closed, phase := c.closed, c.state.Phase
	c.mu.Unlock()
	switch {
	case closed:
		return 0, ErrClosed
	case phase == Failed:
		return 0, fmt.Errorf("ahpclient: dispatch: %w", ErrNotConnected)
	}
	return c.ob.queue(channel, action).ClientSeq, nil
}

// Flush writes every action queued and not yet written, in queue order
// (not connected: reports them Held, for the next connection), and
// returns clientSeq's error when this call wrote it and it was not
// accepted (see Dispatch). An action another Flush wrote first tells its
// fate through OutboxEvents only. Flush holds the send lock while it
// writes: a slow link makes it, not Queue, wait.
func (c *Client) Flush(clientSeq uint64) error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.mu.Lock()
	closed, phase, k := c.closed, c.state.Phase, c.cur
	c.mu.Unlock()
	var res error
	for _, e := range c.ob.takeQuiet() {
		var err error
		switch {
		case closed:
			err = ErrClosed
		case phase == Failed:
			err = fmt.Errorf("ahpclient: dispatch: %w", ErrNotConnected)
		case k == nil:
			c.emit(OutboxEvent{Entry: e}, controlEvent)
		default:
			err = c.sendEntry(k, e)
		}
		if err != nil && (closed || phase == Failed) {
			if ne, ok := c.ob.transition(e.ClientSeq, OutboxFailed, err, 0, OutboxHeld); ok {
				c.emit(OutboxEvent{Entry: ne}, controlEvent)
			}
		}
		if e.ClientSeq == clientSeq {
			res = err
		}
	}
	return res
}

// sendEntry writes a Held entry on k and reports its new state. c.sendMu
// must be held. A transport failure makes the entry Uncertain and returns
// nil (the link's recovery settles it); any other failure (too large, not
// encodable) makes it Failed and is returned.
func (c *Client) sendEntry(k *conn, e OutboxEntry) error {
	ne, ok := c.ob.transition(e.ClientSeq, OutboxSent, nil, 0, OutboxHeld)
	if !ok {
		return nil
	}
	c.emit(OutboxEvent{Entry: ne}, controlEvent)
	m, err := ahpwire.NewNotification(ahpwire.MethodDispatchAction, ahpwire.DispatchActionParams{Channel: e.Channel, ClientSeq: e.ClientSeq, Action: e.Action})
	if err == nil {
		err = k.sendSized(m, ahpwire.MethodDispatchAction, func(n int64) { c.ob.setSize(e.ClientSeq, n) })
	}
	if err == nil {
		return nil
	}
	var te *TransportError
	if errors.As(err, &te) {
		if ne, ok := c.ob.transition(e.ClientSeq, OutboxUncertain, c.maskErr(err), 0, OutboxSent); ok {
			c.emit(OutboxEvent{Entry: ne}, controlEvent)
		}
		return nil
	}
	err = c.maskErr(fmt.Errorf("ahpclient: dispatch %s: %w", e.Action.ActionType(), err))
	if ne, ok := c.ob.transition(e.ClientSeq, OutboxFailed, err, 0); ok {
		c.emit(OutboxEvent{Entry: ne}, controlEvent)
	}
	return err
}

// Resend re-dispatches an Uncertain entry under a new clientSeq (the user's
// one-key resend). The old entry becomes Resent. It returns the new
// clientSeq.
func (c *Client) Resend(ctx context.Context, clientSeq uint64) (uint64, error) {
	e, ok := c.ob.get(clientSeq)
	if !ok || e.Status != OutboxUncertain {
		return 0, fmt.Errorf("ahpclient: resend: no uncertain dispatch %d", clientSeq)
	}
	if ne, ok := c.ob.transition(clientSeq, OutboxResent, nil, 0, OutboxUncertain); ok {
		c.emit(OutboxEvent{Entry: ne}, controlEvent)
	} else {
		return 0, fmt.Errorf("ahpclient: resend: dispatch %d already settled", clientSeq)
	}
	return c.Dispatch(ctx, e.Channel, e.Action)
}

// Outbox returns every dispatch whose fate is not final yet (Held, Sent,
// Uncertain), ordered by clientSeq.
func (c *Client) Outbox() []OutboxEntry { return c.ob.all() }
