package ahphost

import (
	"encoding/json"
	"errors"
	"os"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// writeLoop is the connection's only writer. It pops messages in order and
// segments those larger than the client's frame limit. While a segmented
// message is in flight, a single-frame message may be written between its
// segments if it is at the head of the queue and not an action envelope, or
// if it is an "urgent" response (its request emitted no envelopes, e.g.
// ping or listSessions) anywhere in the queue. Action envelopes are never
// reordered relative to each other, and a response that is not urgent
// never overtakes an action envelope in flight: its request may have
// emitted it (fetchTurns' chat/turnsLoaded page), and the client must have
// the envelope before the answer.
func (c *conn) writeLoop() {
	defer c.h.wg.Done()
	defer func() {
		// A slow-consumer close is still sending its close frame.
		if !c.slow.Load() {
			c.cancel()
		}
	}()
	if err := guard(c.writeMessages); err != nil {
		c.failConn("writer", err, false)
	}
}

// writeMessages is the body of writeLoop.
func (c *conn) writeMessages() {
	var bulk [][]byte
	var bulkGroup string // the group id of bulk
	var bulkAction bool  // the message in flight is an action envelope
	defer func() {
		if len(bulk) > 0 { // the connection ended between its segments
			c.h.splitter.Done(bulkGroup)
		}
	}()
	for {
		if c.slow.Load() {
			return
		}
		if len(bulk) > 0 {
			limit := c.frameLimit()
			fits := func(m *outMsg) bool { return m.interleavable(limit) }
			small, ok := c.q.popIf(func(m *outMsg) bool {
				return m.kind != kindAction && fits(m) && (!bulkAction || m.kind != kindResponse || m.urgent)
			})
			if !ok {
				small, ok = c.q.popUrgent(fits)
			}
			if ok {
				if !c.send(small) {
					return
				}
				continue
			}
			if !c.writeFrame(bulk[0]) {
				return
			}
			bulk = bulk[1:]
			if len(bulk) == 0 {
				c.h.splitter.Done(bulkGroup)
			}
			continue
		}
		if len(c.held) == 0 {
			if !c.q.pending() && !c.flushCork() { // about to wait for a message (cork.go)
				return
			}
			var ok bool
			if c.held, ok = c.q.popBatch(c.ctx, c.frameLimit(), c.batch[:0]); !ok {
				return
			}
		}
		m := c.held[0]
		c.held[0] = outMsg{} // (the batch's array keeps nothing written)
		c.held = c.held[1:]
		if m.deferred != nil {
			if !m.deferred.light && !c.flushCork() { // (a build may wait for a slot)
				return
			}
			head, body := c.buildDeferred(&m)
			if head == nil {
				return // connection ended while waiting to build
			}
			if body != nil && int64(len(head)+len(body)+len(answerTail)) <= c.frameLimit() {
				// A kept answer in one frame: written from where it is kept.
				if !c.awaitDurable(m.at) || !c.writeFrame(head, body, answerTail) {
					return
				}
				continue
			}
			m.data = joinAnswer(head, body)
		}
		g, ok := c.prepare(m)
		if !ok {
			return
		}
		frames := g.Frames
		switch {
		case len(frames) == 0:
		case len(frames) == 1:
			if !c.writeFrame(frames[0]) {
				return
			}
		default:
			bulk, bulkGroup, bulkAction = frames, g.ID, m.kind == kindAction
			c.h.log.Debug("segmenting message", "conn", c.id, "bytes", len(m.data), "segments", len(frames))
		}
		if m.closeAfter != "" && len(frames) <= 1 {
			_ = c.ws.Close(websocket.StatusNormalClosure, m.closeAfter)
			return
		}
	}
}

// send prepares and writes a message that fits in one frame.
func (c *conn) send(m outMsg) bool {
	g, ok := c.prepare(m)
	if !ok {
		return false
	}
	for _, f := range g.Frames {
		if !c.writeFrame(f) {
			return false
		}
	}
	return true
}

// frameLimit is the largest frame the client accepts: its advertised
// maxIncomingFrameBytes, or the host's own ceiling for clients that did not
// advertise chunking.
func (c *conn) frameLimit() int64 {
	if cp := c.recvCap.Load(); cp != nil {
		return cp.MaxIncomingFrameBytes
	}
	return c.h.opts.MaxFrameBytes
}

// prepare turns m into wire frames, with their group id when m is
// segmented (the splitter holds it in flight until Done). Toward a client
// without chunking an oversized response becomes a -32050 error and an
// oversized notification is dropped and logged. It returns false when the connection must be dropped
// (fault injection).
func (c *conn) prepare(m outMsg) (segment.Group, bool) {
	if !c.awaitDurable(m.at) {
		return segment.Group{}, false
	}
	if m.kind == kindAction && c.h.dropAtSeq(m.seq) {
		c.h.log.Info("fault: dropping connection at serverSeq", "conn", c.id, "serverSeq", m.seq)
		_ = c.cork.flush() // what was written before it goes out
		_ = c.ws.CloseNow()
		return segment.Group{}, false
	}
	if int64(len(m.data)) <= c.frameLimit() { // one frame, as it is (no allocation per frame)
		c.single[0] = m.data
		return segment.Group{Frames: c.single[:]}, true
	}
	recv := c.recvCap.Load()
	var ceiling int64
	if recv == nil {
		ceiling = c.h.opts.MaxFrameBytes
	}
	g, err := c.h.splitter.SplitGroup(m.data, recv, ceiling)
	if err == nil {
		return g, true
	}
	size, limit := tooLarge(err)
	switch {
	case m.kind == kindResponse && m.id != nil:
		c.h.log.Warn("response too large for client; answering MessageTooLarge",
			"conn", c.id, "size", size, "limit", limit, "err", err)
		e := ahpwire.NewError(*m.id, segment.CodeMessageTooLarge, "message too large",
			map[string]int64{"size": size, "limit": limit})
		b, merr := json.Marshal(e)
		if merr != nil {
			return segment.Group{}, true
		}
		return segment.Group{Frames: [][]byte{b}}, true
	default:
		c.h.log.Warn("dropping notification too large for client",
			"conn", c.id, "method", m.method, "serverSeq", m.seq, "size", size, "limit", limit, "err", err)
		return segment.Group{}, true
	}
}

// tooLarge extracts size and limit from a splitter error.
func tooLarge(err error) (size, limit int64) {
	var nn *segment.NotNegotiatedError
	var ml *segment.MessageTooLargeError
	var ts *segment.TooManySegmentsError
	switch {
	case errors.As(err, &nn):
		return nn.Size, nn.Limit
	case errors.As(err, &ml):
		return ml.Size, ml.Limit
	case errors.As(err, &ts):
		return 0, segment.MaxTotal - 1
	}
	return 0, 0
}

// writeFrame applies the relay cap and fault injection, then writes one
// text frame, whose payload is the parts one after the other. It returns
// false when the connection is finished.
func (c *conn) writeFrame(parts ...[]byte) bool {
	h := c.h
	if d := h.frameDelay(); d > 0 && !c.sleep(d) {
		return false
	}
	if !c.waitSilence() {
		return false
	}
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	if limit := h.opts.RelayFrameCap; limit > 0 && int64(size) > limit {
		h.log.Warn("relay: outgoing frame exceeds cap; closing connection",
			"conn", c.id, "size", size, "cap", limit)
		_ = c.ws.Close(websocket.StatusMessageTooBig, "frame exceeds relay cap")
		return false
	}
	c.writing.Store(true)
	// More to write at once: one write(2) for them. The cork also bounds
	// the socket's writes by the WriteTimeout (cork.go).
	err := c.cork.writeFrame(len(c.held) > 0 || c.q.pending(), parts...)
	timedOut := errors.Is(err, os.ErrDeadlineExceeded) || c.cork.expired.Load()
	if timedOut {
		_ = c.ws.CloseNow() // the socket is closed under the library: end it too
	}
	c.writing.Store(false)
	if err != nil {
		c.writeFailed(err, timedOut, size)
		return false
	}
	c.framesOut.Add(1)
	if h.dropAfter(c) {
		h.log.Info("fault: dropping connection after frames", "conn", c.id, "frames", c.framesOut.Load())
		_ = c.cork.flush() // the frames counted go out
		_ = c.ws.CloseNow()
		return false
	}
	return true
}

// flushCork writes what the cork holds (cork.go) within the write
// timeout; it returns false when the connection is finished.
func (c *conn) flushCork() bool {
	if c.cork == nil {
		return true
	}
	c.writing.Store(true)
	err := c.cork.flush()
	c.writing.Store(false)
	if err != nil {
		c.writeFailed(err, errors.Is(err, os.ErrDeadlineExceeded), 0)
		_ = c.ws.CloseNow() // what went out of the cork is cut: no frame can follow
		return false
	}
	return true
}

// writeFailed handles a failed frame write: a write that timed out drops
// the connection as a slow consumer.
func (c *conn) writeFailed(err error, timedOut bool, size int) {
	h := c.h
	switch {
	case timedOut && h.ctx.Err() == nil:
		// (The reader may already have seen the cut and cancelled c.ctx.)
		// The library has cut the link (a frame cannot be half-written
		// and resumed), so no close frame can follow.
		h.log.Warn("slow consumer: frame write timed out; connection dropped",
			"conn", c.id, "bytes", size, "timeout", h.opts.WriteTimeout, "code", int(CloseSlowConsumer))
		c.slow.Store(true)
		c.cancel()
	case c.ctx.Err() == nil:
		h.log.Debug("write failed", "conn", c.id, "err", err)
	}
}

// sleep flushes the cork (cork.go), then waits d or until the connection
// ends; it returns false when the connection is finished.
func (c *conn) sleep(d time.Duration) bool {
	if !c.flushCork() { // what the cork holds goes out before the writer waits
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-c.ctx.Done():
		return false
	}
}

// waitSilence blocks while the host is "silent" (GoSilent).
func (c *conn) waitSilence() bool {
	for {
		until := c.h.silentUntil.Load()
		if until == 0 { // never silent: no clock read per frame
			return true
		}
		now := time.Now().UnixNano()
		if until <= now {
			return true
		}
		if !c.sleep(time.Duration(until - now)) {
			return false
		}
	}
}
