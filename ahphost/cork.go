package ahphost

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// One write for several queued frames, and frames built once.
//
// coder/websocket flushes its buffer, one write(2), at the end of every
// message. A streaming reply is thousands of small chat/delta envelopes a
// second (150 bytes each), so the host spent more time in write(2) than
// in everything else it does per delta, and the client as much in
// read(2). The hijacked connection under the WebSocket is a corkConn, and
// the connection's writer writes its data frames into it itself
// (writeFrame): while more messages are queued behind the one it writes,
// the frame's bytes wait in the cork (up to corkBytes); the next frame
// that is not corked (the last queued message, or a control frame the
// library writes from another goroutine) sends them and its own in one
// write(2). Before the writer waits for anything, it flushes what waits
// (flush). Every write that reaches the socket is bounded by the host's
// WriteTimeout (one timer per connection, reset per write(2)).
//
// Why the writer frames its data itself: a server's frames are not masked
// and the host negotiates no compression, so a text frame is a 2–10 byte
// header and the payload as it is. The library's own write of one took
// two channel-based locks, a message writer's reset, its buffer and a
// flush into the cork, per frame per client: with fifty clients on one
// streaming reply it was a fifth of the host's CPU. The library still
// reads, answers pings and closes; each of its frames reaches the cork as
// one Write (its control frames fit its buffer and it flushes after each),
// so frames are never split or interleaved, and once it has written a
// close frame no data frame follows it.

// corkBytes is the most bytes a cork holds before it writes them.
const corkBytes = 64 << 10

// opClose is the first byte of a final close frame (RFC 6455 §5.2).
const opClose = 0x88

// corkConn is the connection under one WebSocket (see above).
type corkConn struct {
	net.Conn
	mu        sync.Mutex
	buf       []byte
	closeSent bool          // the library wrote a close frame: no data frame may follow
	timeout   time.Duration // bounds every write that reaches the socket (0: none)
	timer     *time.Timer   // closes the socket when a write outlasts timeout
	expired   atomic.Bool   // the timer closed it
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

// Write implements io.Writer for the WebSocket library (its handshake
// and control frames): p goes out at once, after what the cork holds, in
// one write.
func (c *corkConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(p) > 0 && p[0] == opClose {
		c.closeSent = true
	}
	if len(c.buf) == 0 {
		return c.write(p)
	}
	c.buf = append(c.buf, p...)
	_, err := c.sendBuf()
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// sendBuf writes what the cork holds and empties it (c.mu is held).
func (c *corkConn) sendBuf() (int, error) {
	if len(c.buf) == 0 {
		return 0, nil
	}
	n, err := c.write(c.buf)
	c.buf = c.buf[:0]
	return n, err
}

// writeFrame writes one final text frame whose payload is parts, one
// after the other. With more set (more frames follow at once) it waits in
// the cork while there is room; otherwise it goes out now with what the
// cork holds. A part too big for the cork is written from where it is,
// after what the cork holds (no copy of a big page or segment).
func (c *corkConn) writeFrame(more bool, parts ...[]byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closeSent {
		return fmt.Errorf("data frame after the close frame: %w", net.ErrClosed)
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	c.buf = appendTextHeader(c.buf, n)
	for _, p := range parts {
		if len(c.buf)+len(p) > corkBytes { // no room: what waits goes first
			if _, err := c.sendBuf(); err != nil {
				return err
			}
			if len(p) > corkBytes/2 {
				if _, err := c.write(p); err != nil {
					return err
				}
				continue
			}
		}
		c.buf = append(c.buf, p...)
	}
	if more && len(c.buf) <= corkBytes {
		return nil
	}
	_, err := c.sendBuf()
	return err
}

// appendTextHeader appends the header of an unmasked, final text frame
// of n payload bytes (RFC 6455 §5.2).
func appendTextHeader(b []byte, n int) []byte {
	const finText = 0x81
	switch {
	case n < 126:
		return append(b, finText, byte(n))
	case n <= 0xFFFF:
		return binary.BigEndian.AppendUint16(append(b, finText, 126), uint16(n))
	default:
		return binary.BigEndian.AppendUint64(append(b, finText, 127), uint64(n))
	}
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
	_, err := c.sendBuf()
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
