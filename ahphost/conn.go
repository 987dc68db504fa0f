package ahphost

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/internal/wseof"
	"github.com/ahptui/ahptui/segment"
)

// conn is one client WebSocket connection.
type conn struct {
	h      *Host
	id     uint64
	ws     *websocket.Conn
	cork   *corkConn // the connection under ws (cork.go); nil in tests that build a conn without ws
	ctx    context.Context
	cancel context.CancelFunc
	q      *outQueue
	// held is what the writer took from q and has still to write, in
	// order (popBatch), in batch's array (writer only).
	held  []outMsg
	batch [64]outMsg
	// single is the frame list of a message that fits in one frame
	// (prepare; valid until the next, writer only).
	single [1][]byte
	eof    *wseof.Watch // sees the stream's end under coder/websocket (nil: not watched); read by readLoop only
	// readOnly marks a connection made with the watch token (auth.go); set
	// before its read loop starts.
	readOnly bool

	// recvCap is the client's advertised chunking capability (nil = none).
	// It is set by initialize/reconnect before their response is queued.
	recvCap atomic.Pointer[segment.ChunkingCapability]
	// framesOut counts frames written; dropBase is its value when the
	// DropAfterFrames fault was last armed.
	framesOut atomic.Int64
	dropBase  atomic.Int64
	// writing is set while the writer is inside a frame write; a long write
	// (a big frame on a slow link) would delay a ping, so none is sent then.
	writing atomic.Bool
	// initTimer closes the connection if it is not initialized in time.
	initTimer *time.Timer
	// msgTimer closes the connection when a message that began does not
	// end within MessageReadTimeout, and msgTimedOut says it did
	// (readmsg.go; readLoop only, but for the timer's own goroutine).
	msgTimer    *time.Timer
	msgTimedOut atomic.Bool
	// slow is set once the connection is being closed as a slow consumer.
	slow atomic.Bool

	// Protocol state, guarded by h.mu.
	ready    bool   // initialize or reconnect succeeded
	clientID string // from initialize/reconnect
	version  string // negotiated protocol version
	subs     map[string]subscription

	reasmMu sync.Mutex
	reasm   *segment.Reassembler
}

// subscription records how a channel was subscribed.
type subscription struct {
	viewTurns int // chat tail window; 0 = all
}

// readLoop reads messages until the connection ends. It runs in the HTTP
// handler's goroutine.
func (c *conn) readLoop() {
	for {
		typ, data, charge, err := c.readMessage()
		if err != nil {
			c.logReadError(err)
			return
		}
		ok := c.handleMessage(typ, data)
		c.h.pendingRead.Add(-charge) // the reassembler copies what it keeps
		if !ok {
			return
		}
	}
}

// handleMessage processes one incoming WebSocket message; it returns false
// when the connection must end.
func (c *conn) handleMessage(typ websocket.MessageType, data []byte) bool {
	h := c.h
	if !c.waitSilence() {
		return false
	}
	if limit := h.opts.RelayFrameCap; limit > 0 && int64(len(data)) > limit {
		h.log.Warn("relay: incoming frame exceeds cap; closing connection", "conn", c.id, "size", len(data), "cap", limit)
		_ = c.ws.Close(websocket.StatusMessageTooBig, "frame exceeds relay cap")
		return false
	}
	if typ != websocket.MessageText {
		h.log.Warn("binary frame received; closing connection", "conn", c.id, "size", len(data))
		_ = c.ws.Close(websocket.StatusUnsupportedData, "text frames only")
		return false
	}
	c.reasmMu.Lock()
	msg, reassembled, err := c.reasm.FeedUnchecked(data)
	c.reasmMu.Unlock()
	var p reassembledMsg
	if err == nil && reassembled {
		// Validated once, here, where it is parsed (FeedUnchecked left the
		// JSON-RPC check to this parse).
		p, err = parseReassembled(msg)
	}
	if err != nil {
		rule, _ := segment.RuleOf(err)
		h.log.Warn("invalid messageSegment; closing connection", "conn", c.id, "rule", rule.String(), "err", err)
		_ = c.ws.Close(segment.CloseCode, segment.CloseReason)
		return false
	}
	if msg == nil {
		return true
	}
	handle := func() { c.handle(msg) }
	switch {
	case reassembled:
		handle = func() { c.route(msg, p.m, p.nullID, p.undecodable) }
	case quickParse(msg, &p):
		// A well-formed message is parsed by the scanner the reassembled
		// ones go through (encoding/json's reflection was a third of what a
		// page read cost the host); anything it does not take goes to
		// handle, whose answers to malformed input are the rule.
		handle = func() { c.route(msg, p.m, p.nullID, nil) }
	}
	if err := guard(handle); err != nil {
		c.failConn("handler", err, true)
		return false
	}
	return c.ctx.Err() == nil
}

// logReadError logs why reading stopped; frames above the read limit are a
// protocol violation and are logged with the limit (never the payload).
func (c *conn) logReadError(err error) {
	h := c.h
	switch {
	case errors.Is(err, errReadBudget):
		h.warnRejected("incoming messages exceed the host-wide budget; closing connection", "conn", c.id,
			"budget", h.opts.MaxPendingReadBytes)
		_ = c.ws.Close(websocket.StatusTryAgainLater, "host busy")
	case errors.Is(err, errMessageTimeout):
		h.warnRejected("incoming message not completed in time; connection closed", "conn", c.id,
			"timeout", h.opts.MessageReadTimeout)
	case errors.Is(err, errCutMessage):
		h.warnRejected("peer closed the stream in the middle of a message; discarded", "conn", c.id)
		_ = c.ws.CloseNow()
	case errors.Is(err, websocket.ErrMessageTooBig):
		h.log.Warn("incoming frame exceeds read limit; connection closed", "conn", c.id, "limit", h.opts.readLimit())
	case c.ctx.Err() != nil:
	default:
		status := websocket.CloseStatus(err)
		h.log.Debug("connection ended", "conn", c.id, "status", int(status), "err", err)
	}
}

// sweepLoop periodically drops stale reassembly groups.
func (c *conn) sweepLoop() {
	defer c.h.wg.Done()
	period := c.reasm.Limits().GroupTimeout / 4
	if period < 50*time.Millisecond {
		period = 50 * time.Millisecond
	}
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			c.reasmMu.Lock()
			c.reasm.Reset()
			c.reasmMu.Unlock()
			return
		case <-t.C:
			c.reasmMu.Lock()
			if n := c.reasm.Sweep(); n > 0 {
				c.h.log.Info("dropped stale segment groups", "conn", c.id, "groups", n)
			}
			c.reasmMu.Unlock()
		}
	}
}

// maxSkippedPings is how many keep-alive intervals in a row may pass
// without a ping because a frame write is in progress.
const maxSkippedPings = 2

// keepAliveLoop pings the client every KeepAlive and drops the connection
// when a pong does not arrive within the next interval (a dead link that
// never closed). The reader goroutine receives the pongs.
func (c *conn) keepAliveLoop() {
	defer c.h.wg.Done()
	every := c.h.opts.KeepAlive
	t := time.NewTicker(every)
	defer t.Stop()
	skipped := 0
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		}
		if c.h.silentUntil.Load() > time.Now().UnixNano() {
			continue
		}
		// A long frame write (a big frame on a slow link) may delay one or
		// two pings, never more: a client that stops reading mid-frame must
		// still be detected.
		if c.writing.Load() && skipped < maxSkippedPings {
			skipped++
			continue
		}
		skipped = 0
		deadline := time.Now().Add(every)
		ctx, cancel := context.WithDeadline(c.ctx, deadline)
		err := c.ws.Ping(ctx)
		cancel()
		// The ping's own deadline passing is the client's fault even when
		// the writer saw the socket close first and ended the connection
		// (a write stuck mid-frame is cut by that close), and even when
		// the library, closing the connection at that deadline, reports
		// the close rather than the deadline.
		timedOut := errors.Is(err, context.DeadlineExceeded) || (err != nil && !time.Now().Before(deadline))
		if err != nil && (c.ctx.Err() == nil || timedOut) && c.h.silentUntil.Load() <= time.Now().UnixNano() {
			c.h.log.Info("client did not answer ping; dropping connection", "conn", c.id)
			_ = c.ws.CloseNow()
			return
		}
	}
}

// initTimeout closes a connection that has not completed initialize or
// reconnect within HandshakeTimeout of its upgrade (1008).
func (c *conn) initTimeout() {
	c.h.mu.Lock()
	ready := c.ready
	c.h.mu.Unlock()
	if ready || c.ctx.Err() != nil {
		return
	}
	c.h.warnRejected("rejected connection: no initialize in time", "conn", c.id, "timeout", c.h.opts.HandshakeTimeout)
	c.h.wg.Add(1)
	go func() {
		defer c.h.wg.Done()
		_ = c.ws.Close(websocket.StatusPolicyViolation, "initialize timeout")
		c.cancel()
		_ = c.ws.CloseNow()
	}()
}
