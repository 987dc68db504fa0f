package ahpclient

import (
	"encoding/json"
	"errors"

	"github.com/ahptui/ahptui/ahpwire"
)

// onNotification handles a server→client notification on the reader
// goroutine. Pushing may block (backpressure) until the consumer catches up
// or the connection ends.
func (c *Client) onNotification(k *conn, m *ahpwire.Message) error {
	if m.Method == ahpwire.MethodAction {
		var p envelopeParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.log.Warn("undecodable action envelope; ignored", "err", err)
			return nil
		}
		c.onActionParams(k, &p)
		return nil
	}
	var head struct {
		Channel string `json:"channel"`
	}
	if len(m.Params) > 0 {
		if err := json.Unmarshal(m.Params, &head); err != nil {
			c.log.Debug("notification params carry no channel", "method", m.Method, "err", err)
		}
	}
	// The client's context, not the connection's: a push blocked by a slow
	// consumer completes even if the link dies meanwhile (nothing is lost).
	c.emit(NotificationEvent{Method: m.Method, Channel: head.Channel, Params: m.Params}, dataEvent)
	return nil
}

// onActionParams handles one live action notification. The action itself
// is decoded later, on the consumer's goroutine in Next, which spreads the
// decoding work over two goroutines. An envelope without channel or action
// is dropped without advancing any sequence number: its serverSeq is
// nothing the client can vouch for (PROTOCOL.md Part A §4).
func (c *Client) onActionParams(k *conn, p *envelopeParams) {
	env, err := p.header()
	if err != nil {
		c.log.Warn("action envelope ignored", "serverSeq", p.ServerSeq, "err", err)
		return
	}
	c.onEnvelope(env, p.Action, liveEnvelope)
}

// envelopeSource says where an envelope came from.
type envelopeSource int

const (
	// liveEnvelope came in an `action` notification; its push waits for
	// room in the queue (backpressure on the read loop).
	liveEnvelope envelopeSource = iota
	// replayedEnvelope came in a reconnect replay; it is pushed from the
	// response hook, which must not wait.
	replayedEnvelope
)

// onEnvelope applies the delivery rules to one envelope (live or replayed):
// own echoes settle the outbox, rejected envelopes are never delivered,
// duplicates and envelopes of unknown channels are skipped, envelopes of a
// pending subscribe are buffered. Once an envelope is admitted its push is
// bound to the client's lifetime, never to a link that may die meanwhile.
//
// raw, when non-nil, is the still undecoded action (env.Action is nil).
func (c *Client) onEnvelope(env ahpwire.ActionEnvelope, raw json.RawMessage, src envelopeSource) {
	own := env.Origin != nil && env.Origin.ClientID == c.clientID
	if own {
		c.noteAccepted(c.ob.sizeOf(env.Origin.ClientSeq)) // the host read it
	}
	if env.RejectionReason != "" {
		c.seq.noteProcessed(env.ServerSeq)
		if own {
			rerr := &RejectedError{Channel: env.Channel, ClientSeq: env.Origin.ClientSeq, Reason: env.RejectionReason}
			if e, ok := c.ob.transition(env.Origin.ClientSeq, OutboxRejected, rerr, env.ServerSeq); ok {
				c.emit(OutboxEvent{Entry: e}, controlEvent)
			}
		}
		return
	}
	b := recvEnvelope{env: env, raw: raw, replayed: src == replayedEnvelope, own: own}
	if c.seq.admit(b) == admitDeliver {
		kind := dataEvent
		if b.replayed {
			kind = dataEventNoWait
		}
		c.emit(b.event(c.seq), kind)
	}
	if own {
		if e, ok := c.ob.transition(env.Origin.ClientSeq, OutboxConfirmed, nil, env.ServerSeq); ok {
			c.emit(OutboxEvent{Entry: e}, controlEvent)
		}
	}
}

// flushBuffered delivers envelopes held during a subscribe.
func (c *Client) flushBuffered(bs []recvEnvelope) {
	for _, b := range bs {
		c.emit(b.event(c.seq), dataEventNoWait)
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
			k.respond(ahpwire.NewError(id, ahpwire.CodeInternalError, c.cfg.mask.String(err.Error()), nil))
			return
		}
		resp, err := ahpwire.NewResult(id, res)
		if err != nil {
			resp = ahpwire.NewError(id, ahpwire.CodeInternalError, "could not encode result", nil)
		}
		k.respond(resp)
	}()
}
