package ahpclient

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// ahpwireMethodPing is the ping method name.
const ahpwireMethodPing = ahpwire.MethodPing

// pingParams are the params of `ping`.
var pingParams = ahpwire.ChannelParams{Channel: ahpwire.RootURI}

// requestTimeout is the timeout applied to requests without a deadline.
func (c *Client) requestTimeout() time.Duration {
	if c.cfg.RequestTimeout > 0 {
		return c.cfg.RequestTimeout
	}
	return 0
}

// request sends method on the live connection and decodes the result into
// out (if non-nil). Errors: ErrNotConnected, ErrClosed, *TransportError,
// the host's *ahpwire.RPCError (wrapped), size errors from segment, or
// ctx's error. hook, if set, runs on the reader goroutine (see call).
func (c *Client) request(ctx context.Context, method string, params, out any, hook func(*ahpwire.Message)) error {
	k, err := c.liveConn()
	if err != nil {
		return fmt.Errorf("ahpclient: %s: %w", method, err)
	}
	return c.requestOn(ctx, k, method, params, out, hook, byApp)
}

// requestOn is request on a given connection, made by by.
func (c *Client) requestOn(ctx context.Context, k *conn, method string, params, out any, hook func(*ahpwire.Message), by requester) error {
	if _, ok := ctx.Deadline(); !ok && c.requestTimeout() > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.requestTimeout())
		defer cancel()
	}
	resp, err := k.callAs(ctx, method, params, hook, by)
	if err != nil {
		if c.isClosed() {
			return fmt.Errorf("ahpclient: %s: %w", method, ErrClosed)
		}
		var te *TransportError
		if errors.As(err, &te) {
			return c.maskErr(err)
		}
		return c.maskErr(rpcFailure(method, err))
	}
	if out != nil {
		if err := resp.DecodeResult(out); err != nil {
			return &ProtocolError{Detail: method + " result", Err: err}
		}
	}
	return nil
}

// Ping sends a protocol ping and waits for the answer.
func (c *Client) Ping(ctx context.Context) error {
	return c.request(ctx, ahpwire.MethodPing, pingParams, nil, nil)
}

// Call sends an arbitrary request and decodes its result into out (nil to
// discard). Use the typed methods where they exist.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	return c.request(ctx, method, params, out, nil)
}

// ListSessions fetches one page of sessions (limit ≤ 0 means the host's
// default; cursor "" means the first page).
func (c *Client) ListSessions(ctx context.Context, limit int, cursor string) (ahpwire.ListSessionsResult, error) {
	k, err := c.liveConn()
	if err != nil {
		return ahpwire.ListSessionsResult{}, fmt.Errorf("ahpclient: listSessions: %w", err)
	}
	return c.listSessions(ctx, k, limit, cursor, byApp)
}

// listSessions fetches one page on k for by.
func (c *Client) listSessions(ctx context.Context, k *conn, limit int, cursor string, by requester) (ahpwire.ListSessionsResult, error) {
	p := ahpwire.ListSessionsParams{Channel: ahpwire.RootURI, Cursor: cursor}
	if limit > 0 {
		p.Limit = ahpwire.Ptr(limit)
	}
	var res ahpwire.ListSessionsResult
	err := c.requestOn(ctx, k, ahpwire.MethodListSessions, p, &res, nil, by)
	return res, err
}

// Subscribe subscribes to channel and returns its snapshot (the zero
// Snapshot for stateless channels). The same snapshot is also delivered as
// a SnapshotEvent in the event stream, followed by the envelopes that
// arrived meanwhile with serverSeq > fromSeq; consumers should build state
// from the stream. The subscription is resumed automatically after
// reconnects. If ctx ends before the answer, the subscription may still
// complete and its SnapshotEvent still arrives.
//
// Subscriptions are counted (subrefs.go): subscribing a channel that is
// already subscribed asks the host for a fresh snapshot and takes another
// hold, and the channel stays subscribed until every successful Subscribe
// has had its Unsubscribe. A Subscribe that fails takes no hold.
func (c *Client) Subscribe(ctx context.Context, channel string, view *ahpwire.SubscribeView) (ahpwire.Snapshot, error) {
	if channel == "" {
		return ahpwire.Snapshot{}, errors.New("ahpclient: subscribe: empty channel")
	}
	k, err := c.liveConn()
	if err != nil {
		return ahpwire.Snapshot{}, fmt.Errorf("ahpclient: subscribe: %w", err)
	}
	p := ahpwire.SubscribeParams{Channel: channel, View: view, Delivery: &ahpwire.SubscribeDelivery{MaxLatencyMs: ahpwire.Ptr(int64(0))}}
	var res ahpwire.SubscribeResult
	var hookErr error
	hook := func(m *ahpwire.Message) {
		if m.Error != nil {
			c.seq.abortSubscribe(channel)
			return
		}
		var r ahpwire.SubscribeResult
		if err := m.DecodeResult(&r); err != nil {
			c.seq.abortSubscribe(channel)
			hookErr = &ProtocolError{Detail: "subscribe result", Err: err}
			return
		}
		res = r
		from := uint64(0)
		if r.Snapshot != nil {
			from = r.Snapshot.FromSeq
		}
		buffered, ok := c.seq.completeSubscribe(channel, from)
		if !ok {
			return // unsubscribed while the subscribe was in flight
		}
		if r.Snapshot != nil {
			c.emit(SnapshotEvent{Snapshot: *r.Snapshot, Reason: SnapshotSubscribe}, dataEventNoWait)
		}
		c.flushBuffered(buffered)
	}
	c.refs.hold(channel)
	c.seq.beginSubscribe(channel)
	if err := c.requestOn(ctx, k, ahpwire.MethodSubscribe, p, nil, hook, byApp); err != nil {
		c.refs.release(channel)
		if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			c.seq.abortSubscribe(channel)
		}
		return ahpwire.Snapshot{}, err
	}
	if hookErr != nil {
		c.refs.release(channel)
		return ahpwire.Snapshot{}, hookErr
	}
	if res.Snapshot == nil {
		return ahpwire.Snapshot{}, nil
	}
	return *res.Snapshot, nil
}

// Unsubscribe gives back one hold on channel (see Subscribe); the last
// one drops it: locally at once (later envelopes are ignored) and on the
// host when connected.
func (c *Client) Unsubscribe(ctx context.Context, channel string) error {
	if c.refs.release(channel) > 0 {
		return nil // another Subscribe still holds it
	}
	c.seq.drop(channel)
	k, err := c.liveConn()
	if err != nil {
		if errors.Is(err, ErrClosed) {
			return err
		}
		return nil // not connected: the next reconnect simply omits it
	}
	if err := k.notify(ahpwire.MethodUnsubscribe, ahpwire.ChannelParams{Channel: channel}); err != nil {
		return c.maskErr(err)
	}
	return nil
}

// CreateSession creates a session at p.Channel (a client-chosen
// ahp-session:/<uuid>). Subscribe to it afterwards to follow its creation.
func (c *Client) CreateSession(ctx context.Context, p ahpwire.CreateSessionParams) error {
	return c.request(ctx, ahpwire.MethodCreateSession, p, nil, nil)
}

// DisposeSession disposes the session at channel (and its chats).
func (c *Client) DisposeSession(ctx context.Context, channel string) error {
	return c.request(ctx, ahpwire.MethodDisposeSession, ahpwire.ChannelParams{Channel: channel}, nil, nil)
}

// CreateChat creates p.Chat inside session p.Channel.
func (c *Client) CreateChat(ctx context.Context, p ahpwire.CreateChatParams) error {
	return c.request(ctx, ahpwire.MethodCreateChat, p, nil, nil)
}

// DisposeChat disposes the chat at channel.
func (c *Client) DisposeChat(ctx context.Context, channel string) error {
	return c.request(ctx, ahpwire.MethodDisposeChat, ahpwire.ChannelParams{Channel: channel}, nil, nil)
}

// FetchTurns asks the host for older turns of chat channel; they arrive as
// a chat/turnsLoaded envelope in the event stream, and then, in the same
// stream, a TurnsFetchedEvent: a consumer that pages waits for that event
// rather than for this call to return, since the call can return before
// the consumer has taken the page from the stream. Every call produces
// exactly one TurnsFetchedEvent, with the call's error if it fails.
func (c *Client) FetchTurns(ctx context.Context, channel, cursor string) error {
	var done atomic.Bool
	finish := func(err error, kind pushKind) {
		if done.CompareAndSwap(false, true) {
			c.emit(TurnsFetchedEvent{Channel: channel, Cursor: cursor, Err: err}, kind)
		}
	}
	// The hook runs on the reader after it has queued every envelope read
	// before the answer (the page among them), and must not wait.
	hook := func(m *ahpwire.Message) {
		if m.Error == nil {
			finish(nil, dataEventNoWait)
		}
	}
	err := c.request(ctx, ahpwire.MethodFetchTurns, ahpwire.FetchTurnsParams{Channel: channel, Cursor: cursor}, nil, hook)
	if err != nil {
		finish(err, controlEvent)
	}
	return err
}
