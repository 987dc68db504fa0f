package ahpclient

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ahptui/ahptui/ahpwire"
)

// onNotification handles a server→client notification on the reader
// goroutine. Pushing may block (backpressure) until the consumer catches up
// or the connection ends.
func (c *Client) onNotification(k *conn, m *ahpwire.Message) error {
	if m.Method == ahpwire.MethodAction {
		var env ahpwire.ActionEnvelope
		if err := json.Unmarshal(m.Params, &env); err != nil {
			c.log.Warn("undecodable action envelope; ignored", "err", err)
			return nil
		}
		c.onEnvelope(k.ctx, env, false, false)
		return nil
	}
	var head struct {
		Channel string `json:"channel"`
	}
	if len(m.Params) > 0 {
		_ = json.Unmarshal(m.Params, &head)
	}
	err := c.q.push(k.ctx, NotificationEvent{Method: m.Method, Channel: head.Channel, Params: m.Params}, true, false)
	if err != nil && !errors.Is(err, ErrClosed) && k.ctx.Err() == nil {
		return err
	}
	return nil
}

// onEnvelope applies the delivery rules to one envelope (live or replayed):
// own echoes settle the outbox, rejected envelopes are never delivered,
// duplicates and envelopes of unknown channels are skipped, envelopes of a
// pending subscribe are buffered.
func (c *Client) onEnvelope(ctx context.Context, env ahpwire.ActionEnvelope, replayed, force bool) {
	own := env.Origin != nil && env.Origin.ClientID == c.clientID
	if env.RejectionReason != "" {
		c.seq.noteProcessed(env.ServerSeq)
		if own {
			rerr := &RejectedError{Channel: env.Channel, ClientSeq: env.Origin.ClientSeq, Reason: env.RejectionReason}
			if e, ok := c.ob.transition(env.Origin.ClientSeq, OutboxRejected, rerr, env.ServerSeq); ok {
				_ = c.q.push(ctx, OutboxEvent{Entry: e}, false, false)
			}
		}
		return
	}
	if c.seq.admit(env, replayed, own) == admitDeliver {
		_ = c.q.push(ctx, EnvelopeEvent{Envelope: env, Replayed: replayed, Own: own, ack: c.seq}, true, force)
	}
	if own {
		if e, ok := c.ob.transition(env.Origin.ClientSeq, OutboxConfirmed, nil, env.ServerSeq); ok {
			_ = c.q.push(ctx, OutboxEvent{Entry: e}, false, false)
		}
	}
}

// flushBuffered delivers envelopes held during a subscribe.
func (c *Client) flushBuffered(ctx context.Context, bs []bufferedEnvelope) {
	for _, b := range bs {
		_ = c.q.push(ctx, EnvelopeEvent{Envelope: b.env, Replayed: b.replayed, Own: b.own, ack: c.seq}, true, true)
	}
}

// onServerRequest answers a server→client request: -32601 unless a
// RequestHandler is installed (which then runs on its own goroutine).
func (c *Client) onServerRequest(k *conn, m *ahpwire.Message) {
	id := *m.ID
	h := c.cfg.RequestHandler
	if h == nil {
		k.respond(ahpwire.NewError(id, ahpwire.CodeMethodNotFound, "method not found: "+m.Method, nil))
		return
	}
	k.wg.Add(1)
	go func() {
		defer k.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				c.log.Error("request handler panicked", "method", m.Method, "panic", r)
				k.respond(ahpwire.NewError(id, ahpwire.CodeInternalError, "internal error", nil))
			}
		}()
		res, err := h(k.ctx, m.Method, m.Params)
		if err != nil {
			var re *ahpwire.RPCError
			if errors.As(err, &re) {
				k.respond(&ahpwire.Message{JSONRPC: ahpwire.JSONRPCVersion, ID: &id, Error: re})
				return
			}
			k.respond(ahpwire.NewError(id, ahpwire.CodeInternalError, c.cfg.mask.mask(err.Error()), nil))
			return
		}
		resp, err := ahpwire.NewResult(id, res)
		if err != nil {
			resp = ahpwire.NewError(id, ahpwire.CodeInternalError, "could not encode result", nil)
		}
		k.respond(resp)
	}()
}
