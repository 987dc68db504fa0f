package ahpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/segment"
)

// Client is a resilient AHP client for one host. Create it with New, call
// Start once, consume events with Next, and Close it when done. All methods
// are safe for concurrent use.
type Client struct {
	cfg      *config
	clientID string
	idSlot   *idSlot // the locked client-id slot (nil: explicit or temporary id)
	log      *slog.Logger
	q        *eventQueue
	seq      *seqTracker
	refs     subRefs // holds per subscribed channel (subrefs.go)
	ob       *outbox
	splitter *segment.Splitter

	ctx    context.Context // client lifetime; cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// sendMu orders dispatch writes and the flush of held dispatches.
	sendMu sync.Mutex

	mu          sync.Mutex
	state       ConnState
	cur         *conn // the live, handshaken connection (nil otherwise)
	hostChunk   *segment.ChunkingCapability
	version     string // negotiated protocol version
	features    HostFeatures
	initialized bool // a handshake succeeded once: reconnect is possible
	needInit    bool // reconnect was unusable: initialize until that succeeds
	started     bool
	closed      bool
	oversize    oversizeStreak
	// backoffWake is non-nil while the supervisor waits out a reconnect
	// backoff; RetryNow posts on it.
	backoffWake chan struct{}

	// hostAccepted is the largest frame the host answered or echoed;
	// outLimit the learned outbound frame limit (0: none), see
	// FrameTooLargeError.Outbound.
	hostAccepted atomic.Int64
	outLimit     atomic.Int64
}

// oversizeStreak detects the same oversized frame coming back.
type oversizeStreak struct {
	count int
	at    uint64
}

// New validates o and returns an idle client. It performs no network I/O.
// Unless Options.ClientID is set it claims this process's client id for the
// host: the first client-id slot under StateDir that no live process holds
// (see Options.StateDir). The slot stays locked until Close, so always Close
// a client, even one whose Start failed.
func New(o Options) (*Client, error) {
	cfg, err := o.validate()
	if err != nil {
		return nil, err
	}
	id := cfg.ClientID
	var slot *idSlot
	if id == "" {
		dir := cfg.StateDir
		if dir == "" {
			if dir, err = DefaultStateDir(); err != nil {
				cfg.Logger.Warn("no state directory; using a temporary client id", "err", err)
			}
		}
		if dir != "" {
			slot, err = claimClientID(dir, cfg.hostKey)
			if err != nil {
				cfg.Logger.Warn("client id not persisted", "err", err)
			}
			if slot != nil {
				id = slot.id
			}
		}
		if id == "" {
			if id, err = newClientID(); err != nil {
				return nil, err
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{
		cfg:      cfg,
		clientID: id,
		idSlot:   slot,
		log:      redact.Logger(cfg.Logger, cfg.mask),
		q:        newEventQueueBytes(cfg.HighWater, cfg.HighWaterBytes),
		seq:      newSeqTracker(),
		ob:       newOutbox(),
		splitter: segment.NewSplitter(nil),
		ctx:      ctx,
		cancel:   cancel,
		state:    ConnState{Phase: Idle},
	}
	return c, nil
}

// ClientID returns the AHP clientId in use.
func (c *Client) ClientID() string { return c.clientID }

// URL returns the host URL with the token removed (safe to display).
func (c *Client) URL() string { return c.cfg.safeURL() }

// State returns the current connection state.
func (c *Client) State() ConnState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state
}

// Unresponsive reports how long the host has been silent while a request
// or ping is overdue (unanswered for more than min(2s, PingTimeout) with
// no frame received since it was sent); 0 while it answers. A UI shows it
// at once ("host not responding for Ns") instead of waiting for the dead
// link check to reconnect.
func (c *Client) Unresponsive() time.Duration {
	c.mu.Lock()
	k := c.cur
	c.mu.Unlock()
	if k == nil {
		return 0
	}
	return k.overdue(c.cfg.Now(), min(2*time.Second, c.cfg.PingTimeout))
}

// LastSeenServerSeq returns the lastSeenServerSeq the next reconnect would
// report (only acknowledged envelopes count).
func (c *Client) LastSeenServerSeq() uint64 { return c.seq.lastSeen() }

// Subscriptions returns the channels currently subscribed (root first).
func (c *Client) Subscriptions() []string { return c.seq.subscriptions() }

// Start makes the first connection: dial, initialize, subscribe to the root
// channel. It returns a plain, token-free error when that fails (unreachable
// host, *AuthError, *VersionError, ...) so a caller can print it and exit;
// the client is then Failed. On success a supervisor keeps the connection
// alive (heartbeat, reconnect) until Close. Start may be called only once.
func (c *Client) Start(ctx context.Context) error {
	c.mu.Lock()
	switch {
	case c.closed:
		c.mu.Unlock()
		return ErrClosed
	case c.started:
		c.mu.Unlock()
		return errors.New("ahpclient: Start called twice")
	}
	c.started = true
	c.wg.Add(1) // Close waits for Start (a closing client fails its connection)
	c.mu.Unlock()
	defer c.wg.Done()
	c.setState(ConnState{Phase: Connecting})
	k, rec, err := c.connectOnce(ctx)
	if err != nil {
		if c.isClosed() {
			return ErrClosed
		}
		err = c.maskErr(err)
		c.setState(ConnState{Phase: Failed, Err: err})
		return err
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		k.fail(ErrClosed)
		k.wait()
		return ErrClosed
	}
	c.wg.Add(1) // the supervisor; under c.mu so Close cannot be waiting yet
	c.mu.Unlock()
	c.activate(k, rec)
	go c.supervise(k)
	return nil
}

// Next returns the next event, waiting until one is available, ctx is done,
// or the client is closed and the stream drained (ErrClosed). Events are
// never dropped; while they are not consumed, reading from the host pauses.
// Unless Options.ExplicitAck is set, calling Next acknowledges the
// EnvelopeEvent returned by the previous call (it counts as applied). Use a
// single consumer goroutine; concurrent calls are safe but interleave.
func (c *Client) Next(ctx context.Context) (Event, error) {
	if !c.cfg.ExplicitAck {
		c.seq.ackReturned()
	}
	ev, err := c.q.pop(ctx)
	if err != nil {
		return nil, err
	}
	if e, ok := ev.(EnvelopeEvent); ok {
		if e.raw != nil {
			e = c.decodeAction(e)
			ev = e
		}
		if !c.cfg.ExplicitAck {
			c.seq.setReturned(e.Envelope.ServerSeq)
		}
	}
	return ev, nil
}

// NextBatch is Next for a consumer that fell behind: it waits for the
// first event and then appends to dst every event already queued behind
// it, up to max in all, taking the queue's lock once, so the consumer can
// apply (and draw) them as one batch. Events keep their order and nothing
// is dropped. It needs Options.ExplicitAck (each EnvelopeEvent counts as
// applied once acknowledged); without it, it returns one event as Next does.
func (c *Client) NextBatch(ctx context.Context, dst []Event, max int) ([]Event, error) {
	if !c.cfg.ExplicitAck || max <= 1 {
		ev, err := c.Next(ctx)
		if err != nil {
			return dst, err
		}
		return append(dst, ev), nil
	}
	start := len(dst)
	dst, err := c.q.popBatch(ctx, dst, max)
	if err != nil {
		return dst, err
	}
	for i := start; i < len(dst); i++ {
		if e, ok := dst[i].(EnvelopeEvent); ok && e.raw != nil {
			dst[i] = c.decodeAction(e)
		}
	}
	return dst, nil
}

// decodeAction decodes e's raw action (left for the consumer to decode, off
// the read loop) into e.Envelope.Action; a failure is logged.
func (c *Client) decodeAction(e EnvelopeEvent) EnvelopeEvent {
	a, err := decodeActionSafely(e.raw)
	if err != nil {
		c.log.Warn("action envelope", "serverSeq", e.Envelope.ServerSeq, "err", err)
	}
	e.Envelope.Action, e.raw = a, nil
	return e
}

// AckAll marks every envelope of evs applied, taking the sequence
// tracker's lock once (EnvelopeEvent.Ack for a whole batch).
func AckAll(evs []EnvelopeEvent) {
	if len(evs) == 0 || evs[0].ack == nil {
		for _, e := range evs {
			e.Ack()
		}
		return
	}
	t := evs[0].ack
	t.mu.Lock()
	for _, e := range evs {
		if e.ack == t {
			t.ackLocked(e.Envelope.ServerSeq)
		}
	}
	t.mu.Unlock()
	for _, e := range evs {
		if e.ack != t {
			e.Ack()
		}
	}
}

// Ack marks the envelope with serverSeq applied (see EnvelopeEvent.Ack).
func (c *Client) Ack(serverSeq uint64) { c.seq.ack(serverSeq) }

// Applied is Ack spelled with its channel, for consumers that track
// channels: it marks the envelope (channel, serverSeq) applied. serverSeq is
// unique across channels, so channel is informational.
func (c *Client) Applied(channel string, serverSeq uint64) { c.seq.ack(serverSeq) }

// Close ends the client: the supervisor stops, the connection closes, every
// waiting request fails with ErrClosed, held dispatches become Failed, the
// client-id slot is released for the next process, and Next returns the
// remaining events and then ErrClosed. All goroutines the
// client started have exited when Close returns. It is idempotent.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	c.cancel()
	c.wg.Wait()
	c.mu.Lock()
	k := c.cur
	c.cur = nil
	c.mu.Unlock()
	if k != nil {
		k.fail(ErrClosed)
		k.wait()
	}
	for _, e := range c.ob.all() {
		if ne, ok := c.ob.transition(e.ClientSeq, OutboxFailed, ErrClosed, 0); ok {
			c.emit(OutboxEvent{Entry: ne}, controlEvent)
		}
	}
	c.setState(ConnState{Phase: Closed})
	c.q.close()
	if err := c.idSlot.release(); err != nil {
		c.log.Warn("release client id slot", "err", err)
	}
	return nil
}

// emit queues ev for the consumer. A data event may wait for room (see
// pushKind) until the client closes. A push fails only when the event can
// no longer reach anyone (the client closed); that is logged and ev dropped.
func (c *Client) emit(ev Event, kind pushKind) {
	if err := c.q.push(c.ctx, ev, kind); err != nil {
		c.log.Debug("event not queued", "event", fmt.Sprintf("%T", ev), "err", err)
	}
}

// setState records s and publishes it.
func (c *Client) setState(s ConnState) {
	if s.Err != nil {
		s.Err = c.maskErr(s.Err)
	}
	c.mu.Lock()
	if c.state.Phase == Closed {
		c.mu.Unlock()
		return
	}
	c.state = s
	c.mu.Unlock()
	c.emit(ConnStateEvent{State: s}, controlEvent)
	c.log.Info("connection state", "state", s.String())
	if s.Phase == Failed {
		c.failHeld(s.Err)
	}
}

// failHeld settles the dispatches that can never be sent once the client
// has failed: Held entries become Failed with the failure's reason.
func (c *Client) failHeld(cause error) {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	for _, e := range c.ob.withStatus(OutboxHeld) {
		err := fmt.Errorf("ahpclient: not sent: %w: %w", ErrNotConnected, cause)
		if ne, ok := c.ob.transition(e.ClientSeq, OutboxFailed, err, 0, OutboxHeld); ok {
			c.emit(OutboxEvent{Entry: ne}, controlEvent)
		}
	}
}

// isClosed reports whether Close was called.
func (c *Client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// liveConn returns the live connection or the error a request should get.
func (c *Client) liveConn() (*conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.closed:
		return nil, ErrClosed
	case c.cur != nil:
		return c.cur, nil
	case c.state.Phase == Failed && c.state.Err != nil:
		return nil, fmt.Errorf("%w: %w", ErrNotConnected, c.state.Err)
	}
	return nil, ErrNotConnected
}

// maskErr returns err with the token masked out of its text (the chain is
// kept for errors.Is/As); see internal/redact.
func (c *Client) maskErr(err error) error { return c.cfg.mask.Error(err) }

// noteAccepted records that the host read a frame of n bytes.
func (c *Client) noteAccepted(n int64) {
	for {
		cur := c.hostAccepted.Load()
		if n <= cur || c.hostAccepted.CompareAndSwap(cur, n) {
			return
		}
	}
}

// learnOutLimit lowers the outbound frame limit to n.
func (c *Client) learnOutLimit(n int64) {
	for {
		cur := c.outLimit.Load()
		if (cur != 0 && cur <= n) || c.outLimit.CompareAndSwap(cur, n) {
			return
		}
	}
}
