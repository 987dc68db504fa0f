package ahpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/wseof"
	"github.com/ahptui/ahptui/segment"
)

// conn is one WebSocket transport with its JSON-RPC machinery: exactly one
// reader goroutine (reassembly, dispatch of responses, notifications and
// server requests), a heartbeat goroutine, a pending-call table and a write
// lock that keeps the frames of one segmented message contiguous.
//
// Locks (all leaves; see "Concurrency" in doc.go): writeMu is held across
// one message's writes, reasmMu around the reassembler (the reader feeds
// it, the heartbeat sweeps it), mu over the call table and the failure.
type conn struct {
	cl     *Client
	ws     *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	writeMu sync.Mutex

	reasmMu sync.Mutex
	reasm   *segment.Reassembler

	mu          sync.Mutex
	pending     map[uint64]*call
	nextID      uint64
	err         error       // why the connection ended; set once, with dead
	dead        bool        // fail ran: no call can be registered any more
	stopOnClose func() bool // unregisters the client-close hook

	hostCap  atomic.Pointer[segment.ChunkingCapability]
	lastRead atomic.Int64 // unix nanoseconds of the last received frame
	pongs    atomic.Int64 // heartbeat pings answered (the heartbeat's rounds that judged the link alive)

	busy atomic.Bool // the reader is processing a frame (not waiting for one)

	eof *wseof.Watch // sees the transport's end under coder/websocket (nil: not watched)

	done chan struct{} // closed when the connection has failed
}

// failure returns why the connection ended (nil while it is up).
func (k *conn) failure() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.err
}

// call is one outstanding request.
type call struct {
	method string
	// hook runs on the reader goroutine when the response arrives, before
	// the waiter wakes and before any later frame is processed. It runs even
	// if the waiter gave up.
	hook func(*ahpwire.Message)
	ch   chan *ahpwire.Message // nil message = connection lost
	// by says who made the request; see FrameTooLargeError.userPending.
	by requester
	// size is the largest frame of the request (guarded by conn.mu).
	size int64
	// sent is when the request was registered (unix nanoseconds).
	sent int64
}

// requester says who made a request.
type requester int

const (
	// byClient: the client itself (handshake, heartbeat, automatic
	// refresh); nothing waits for it but the client.
	byClient requester = iota
	// byApp: an application call; a frame too large for the receive
	// ceiling while one is pending is taken to be its answer.
	byApp
)

// newConn wraps an open WebSocket (eof watching the stream under it, or
// nil) and starts its reader.
func newConn(cl *Client, ws *websocket.Conn, eof *wseof.Watch) *conn {
	ctx, cancel := context.WithCancel(cl.ctx)
	k := &conn{
		cl:      cl,
		ws:      ws,
		eof:     eof,
		ctx:     ctx,
		cancel:  cancel,
		reasm:   segment.NewReassembler(cl.cfg.recvLim, cl.cfg.Now),
		pending: make(map[uint64]*call),
		done:    make(chan struct{}),
	}
	k.hostCap.Store(cl.hostCapability())
	k.lastRead.Store(cl.cfg.Now().UnixNano())
	// Closing the client fails every connection, including one still in
	// its handshake.
	stop := context.AfterFunc(cl.ctx, func() { k.fail(ErrClosed) })
	k.mu.Lock()
	k.stopOnClose = stop
	k.mu.Unlock()
	k.wg.Add(1)
	go k.readLoop()
	return k
}

// fail ends the connection once with err: the socket closes, every pending
// call fails with a *TransportError and done is closed. Later calls do
// nothing.
func (k *conn) fail(err error) {
	k.mu.Lock()
	if k.dead {
		k.mu.Unlock()
		return
	}
	k.dead, k.err = true, err
	stop := k.stopOnClose
	calls := k.pending
	k.pending = make(map[uint64]*call)
	k.mu.Unlock()
	if _, ok := segment.RuleOf(err); ok {
		// Only the reader reports violations, so Close can complete the
		// close handshake (4400 "invalid messageSegment").
		if cerr := k.ws.Close(segment.CloseCode, segment.CloseReason); cerr != nil {
			k.cl.log.Debug("close handshake", "err", cerr)
		}
	}
	k.cancel()
	if stop != nil {
		stop()
	}
	if cerr := k.ws.CloseNow(); cerr != nil {
		// Usually already closed, by the peer or the close above.
		k.cl.log.Debug("close connection", "err", cerr)
	}
	for _, c := range calls {
		c.ch <- nil
	}
	close(k.done)
}

// cause returns why the connection ended (after done is closed).
func (k *conn) cause() error {
	<-k.done
	return k.failure()
}

// wait blocks until the connection's goroutines have exited.
func (k *conn) wait() { k.wg.Wait() }

// handle routes one complete JSON-RPC message.
func (k *conn) handle(b []byte) error {
	if p, ok := decodeActionFast(b); ok {
		k.cl.onActionParams(k, p)
		return nil
	}
	var m ahpwire.Message
	if err := json.Unmarshal(b, &m); err != nil {
		k.cl.log.Warn("undecodable message from host; ignored", "bytes", len(b), "err", err)
		return nil
	}
	return k.dispatch(&m)
}

// dispatch routes one decoded message.
func (k *conn) dispatch(m *ahpwire.Message) error {
	switch {
	case m.IsResponse() && m.ID == nil:
		// "id": null answers a request the host could not parse or
		// identify: nothing this client is waiting for.
		if m.Error != nil {
			k.cl.log.Warn("host sent an error for no request (id null); ignored",
				"code", m.Error.Code, "message", m.Error.Message) // the logger masks tokens
		} else {
			k.cl.log.Warn("host sent a response without an id; ignored")
		}
	case m.IsResponse():
		k.resolve(m)
	case m.IsNotification():
		return k.cl.onNotification(k, m)
	case m.IsRequest():
		k.cl.onServerRequest(k, m)
	default:
		k.cl.log.Warn("message is neither request, response nor notification; ignored")
	}
	return nil
}

// resolve hands a response to its call.
func (k *conn) resolve(m *ahpwire.Message) {
	id := *m.ID // not under k.mu: a panic must not leave it held
	k.mu.Lock()
	c := k.pending[id]
	delete(k.pending, id)
	k.mu.Unlock()
	if c == nil {
		k.cl.log.Debug("response for unknown request id", "id", id)
		return
	}
	if c.hook != nil {
		c.hook(m)
	}
	k.mu.Lock()
	size := c.size
	k.mu.Unlock()
	k.cl.noteAccepted(size)
	c.ch <- m
}

// outboundFloor is the smallest frame a 1009 close is ever attributed to:
// below it the close is taken to be about a frame toward this client (no
// real host or relay caps frames that low).
const outboundFloor = 16 << 10

// inflight reports whether an application request is awaiting its answer
// and the largest frame written on this connection that the host has not
// answered (requests) or echoed (dispatches) yet.
func (k *conn) inflight() (user bool, maxSize int64) {
	k.mu.Lock()
	for _, c := range k.pending {
		user = user || c.by == byApp
		maxSize = max(maxSize, c.size)
	}
	k.mu.Unlock()
	return user, max(maxSize, k.cl.ob.maxSentSize())
}

// register adds a call and returns its id.
func (k *conn) register(c *call) (uint64, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.dead {
		return 0, &TransportError{Op: c.method, Cause: k.err}
	}
	k.nextID++
	c.sent = k.cl.cfg.Now().UnixNano()
	k.pending[k.nextID] = c
	return k.nextID, nil
}

// overdue is how long the host has been silent while a request (or ping)
// sent more than grace ago waits for its answer with nothing received
// since it was sent; 0 when no request is overdue or the read loop is
// busy (silence then says nothing about the host).
func (k *conn) overdue(now time.Time, grace time.Duration) time.Duration {
	if k.readerStalled() {
		return 0
	}
	k.mu.Lock()
	oldest := int64(0)
	for _, c := range k.pending {
		if oldest == 0 || c.sent < oldest {
			oldest = c.sent
		}
	}
	k.mu.Unlock()
	last := k.lastRead.Load()
	if oldest == 0 || now.Sub(time.Unix(0, oldest)) < grace || last > oldest {
		return 0
	}
	return now.Sub(time.Unix(0, last))
}

// unregister removes a call that will not be waited for.
func (k *conn) unregister(id uint64) {
	k.mu.Lock()
	delete(k.pending, id)
	k.mu.Unlock()
}

// call sends a request and waits for its response, ctx, or the end of the
// connection. A JSON-RPC error response is returned as *ahpwire.RPCError.
func (k *conn) call(ctx context.Context, method string, params any, hook func(*ahpwire.Message)) (*ahpwire.Message, error) {
	return k.callAs(ctx, method, params, hook, byClient)
}

// callAs is call for a request made by by.
func (k *conn) callAs(ctx context.Context, method string, params any, hook func(*ahpwire.Message), by requester) (*ahpwire.Message, error) {
	c := &call{method: method, hook: hook, ch: make(chan *ahpwire.Message, 1), by: by}
	id, err := k.register(c)
	if err != nil {
		return nil, err
	}
	req, err := ahpwire.NewRequest(id, method, params)
	if err != nil {
		k.unregister(id)
		return nil, err
	}
	err = k.sendSized(req, method, func(n int64) {
		k.mu.Lock()
		c.size = n
		k.mu.Unlock()
	})
	if err != nil {
		k.unregister(id)
		return nil, err
	}
	select {
	case resp := <-c.ch:
		if resp == nil {
			return nil, &TransportError{Op: method, Cause: k.failure()}
		}
		if resp.Error != nil {
			return resp, resp.Error
		}
		return resp, nil
	case <-ctx.Done():
		if hook == nil {
			k.unregister(id)
		}
		return nil, ctx.Err()
	}
}

// notify sends a notification.
func (k *conn) notify(method string, params any) error {
	m, err := ahpwire.NewNotification(method, params)
	if err != nil {
		return err
	}
	return k.send(m, method)
}

// sendCeiling is the frame ceiling for sending: for a host that did not
// advertise chunking the client's own receive ceiling (symmetric limits),
// lowered to the learned outbound limit once the host or a relay closed
// the link for an outbound frame (see FrameTooLargeError.Outbound).
func (k *conn) sendCeiling() int64 {
	var lim int64
	if k.hostCap.Load() == nil {
		lim = k.cl.cfg.MaxFrameBytes
	}
	if l := k.cl.outLimit.Load(); l > 0 && (lim == 0 || l < lim) {
		lim = l
	}
	return lim
}

// send serialises, segments (toward a host that advertised chunking) and
// writes one message. Size errors (*segment.NotNegotiatedError,
// *segment.MessageTooLargeError, ...) are returned without touching the
// connection; write errors end it and return a *TransportError.
func (k *conn) send(m *ahpwire.Message, op string) error {
	return k.sendSized(m, op, nil)
}

// sendSized is send; sized, if set, learns the largest frame's size before
// anything is written.
func (k *conn) sendSized(m *ahpwire.Message, op string, sized func(int64)) error {
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("ahpclient: encode %s: %w", op, err)
	}
	g, err := k.cl.splitter.SplitGroup(b, k.hostCap.Load(), k.sendCeiling())
	if err != nil {
		return fmt.Errorf("ahpclient: %s: %w", op, err)
	}
	if g.ID != "" {
		defer k.cl.splitter.Done(g.ID)
	}
	if sized != nil {
		var n int64
		for _, f := range g.Frames {
			n = max(n, int64(len(f)))
		}
		sized(n)
	}
	if err := k.writeFrames(g.Frames); err != nil {
		cause := fmt.Errorf("ahpclient: write: %w", err)
		if k.ctx.Err() != nil {
			if f := k.failure(); f != nil {
				cause = f
			}
		}
		k.fail(cause)
		return &TransportError{Op: op, Cause: cause}
	}
	return nil
}

// writeFrames writes the frames of one message back to back.
func (k *conn) writeFrames(frames [][]byte) error {
	k.writeMu.Lock()
	defer k.writeMu.Unlock()
	for _, f := range frames {
		if err := k.ws.Write(k.ctx, websocket.MessageText, f); err != nil {
			return err
		}
	}
	return nil
}

// respond answers a server→client request (best effort).
func (k *conn) respond(m *ahpwire.Message) {
	if err := k.send(m, "response"); err != nil {
		k.cl.log.Warn("could not answer host request", "err", err)
	}
}
