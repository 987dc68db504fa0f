package ahphost

import (
	"bufio"
	"net"
	"sync"
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
// what waits (flushCork). Frames are never reordered or split differently:
// the WebSocket library writes whole frames under its own lock, and the
// cork only delays when their bytes reach the socket.

// corkBytes is the most bytes a cork holds before it writes them.
const corkBytes = 64 << 10

// corkConn is the connection under one WebSocket (see above).
type corkConn struct {
	net.Conn
	mu     sync.Mutex
	corked bool
	buf    []byte
}

// Write implements io.Writer: held while corked and room is left, else
// written with what was held, in one write.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.corked && len(c.buf)+len(p) <= corkBytes {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	if len(c.buf) == 0 {
		return c.Conn.Write(p)
	}
	c.buf = append(c.buf, p...)
	_, err := c.Conn.Write(c.buf)
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
	c.mu.Lock()
	c.corked = on
	c.mu.Unlock()
}

// flush writes what the cork holds, giving up after timeout (a client
// that does not read: the caller drops the connection).
func (c *corkConn) flush(timeout time.Duration) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.buf) == 0 {
		return nil
	}
	if timeout > 0 {
		_ = c.Conn.SetWriteDeadline(time.Now().Add(timeout))
		defer func() { _ = c.Conn.SetWriteDeadline(time.Time{}) }()
	}
	_, err := c.Conn.Write(c.buf)
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
