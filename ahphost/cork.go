package ahphost

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// One write for several queued frames.
//
// coder/websocket flushes its buffer, one write(2), at the end of every
// message. A streaming reply is thousands of small chat/delta envelopes a
// second (150 bytes each), so the host spent more time in write(2) than
// in everything else it does per delta, and the client as much in
// read(2). The hijacked connection under the WebSocket is a corkConn: while
// the writer has more messages queued behind the one it writes, it corks
// the connection for that write, and the frame's bytes wait in the cork
// (up to corkBytes); the next write that is not corked (the last queued
// message, or a control frame from another goroutine) sends them and its
// own in one write(2). Before the writer waits for anything, it flushes
// what waits (flushCork). Every write that reaches the socket is bounded
// by the host's WriteTimeout (one timer per connection, reset per write(2)),
// so a frame's
// write needs no context of its own (a context with a deadline costs a
// timer and a goroutine hand-off per frame in coder/websocket). Frames are
// never reordered or split differently:
// the WebSocket library writes whole frames under its own lock, and the
// cork only delays when their bytes reach the socket.

// corkBytes is the most bytes a cork holds before it writes them.
const corkBytes = 64 << 10

// corkConn is the connection under one WebSocket (see above).
type corkConn struct {
	net.Conn
	mu      sync.Mutex
	corked  atomic.Bool // read under mu by Write; set by the writer without it (once per frame)
	buf     []byte
	timeout time.Duration // bounds every write that reaches the socket (0: none)
	timer   *time.Timer   // closes the socket when a write outlasts timeout
	expired atomic.Bool   // the timer closed it
}

// write writes b to the socket within the timeout (c.mu is held): a
// write still blocked then is ended by closing the socket (as closing
// ends a write blocked on it), reported as os.ErrDeadlineExceeded.
func (c *corkConn) write(b []byte) (int, error) {
	if c.timeout <= 0 {
		return c.Conn.Write(b) //nolint:wrapcheck // the socket's own error
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(c.timeout, func() { c.expired.Store(true); _ = c.Conn.Close() })
	} else {
		c.timer.Reset(c.timeout)
	}
	n, err := c.Conn.Write(b)
	if !c.timer.Stop() {
		// The timer fired: the socket is closed (or being closed), even if
		// this write got through just before it (the close may release a
		// write held elsewhere before the socket is shut).
		return n, fmt.Errorf("write of %d bytes: %w", len(b), os.ErrDeadlineExceeded)
	}
	return n, err //nolint:wrapcheck // the socket's own error
}

// Write implements io.Writer: held while corked and room is left, else
// written with what was held, in one write.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked.Load() && len(c.buf)+len(p) <= corkBytes {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	if len(c.buf) == 0 {
		return c.write(p)
	}
	c.buf = append(c.buf, p...)
	_, err := c.write(c.buf)
	c.buf = c.buf[:0]
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// setCork corks (or uncorks) the connection for the writes that follow.
func (c *corkConn) setCork(on bool) {
	if c == nil {
		return
	}
	c.corked.Store(on)
}

// flush writes what the cork holds, giving up after the timeout (a client
// that does not read: the caller drops the connection).
func (c *corkConn) flush() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.write(c.buf)
	c.buf = c.buf[:0]
	return err
}

// corkedRW returns the hijacked stream's reader and a writer over c (the
// hijacked writer is empty: net/http flushed the handshake's answer).
func corkedRW(c *corkConn, brw *bufio.ReadWriter) *bufio.ReadWriter {
	if brw.Writer.Buffered() > 0 {
		_ = brw.Writer.Flush()
	}
	return bufio.NewReadWriter(brw.Reader, bufio.NewWriterSize(c, brw.Writer.Size()))
}
