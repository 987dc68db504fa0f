// Package wseof sees the end of the byte stream under a WebSocket
// connection, for both ends of ahptui's (ahpclient, ahphost).
//
// coder/websocket v1.8.15 (the newest release; read.go, msgReader.Read)
// takes the peer's EOF between fragments, or before a frame's payload, for
// the end of the message, so a message read while the stream ended may be
// its first fragments only. A complete message never needs a read past its
// last byte: a reader that asks Seen after each message discards one read
// while the stream ended (ErrCutMessage) instead of handing on a cut one.
package wseof

import (
	"errors"
	"io"
	"net"
	"sync/atomic"
)

// ErrCutMessage reports a message whose stream ended while it was read.
var ErrCutMessage = errors.New("peer closed the stream in the middle of a message")

// Watch records that one connection's stream ended (the peer closed or
// half-closed it, or a read failed). The zero Watch is ready; a nil one
// has seen nothing.
type Watch struct {
	ended atomic.Bool
}

// Seen reports whether the stream has ended.
func (w *Watch) Seen() bool { return w != nil && w.ended.Load() }

// mark records the end of the stream when a read failed or ended.
func (w *Watch) mark(err error) {
	if err != nil {
		w.ended.Store(true)
	}
}

// Conn is c whose failed or ended reads mark w (a server's hijacked
// connection).
func (w *Watch) Conn(c net.Conn) net.Conn { return &watchedConn{Conn: c, w: w} }

// Body is rwc whose failed or ended reads mark w (a client's upgraded
// connection: the body of a 101 Switching Protocols response).
func (w *Watch) Body(rwc io.ReadWriteCloser) io.ReadWriteCloser {
	return &watchedBody{ReadWriteCloser: rwc, w: w}
}

type watchedConn struct {
	net.Conn
	w *Watch
}

// Read implements io.Reader.
func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.w.mark(err)
	return n, err
}

type watchedBody struct {
	io.ReadWriteCloser
	w *Watch
}

// Read implements io.Reader.
func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadWriteCloser.Read(p)
	b.w.mark(err)
	return n, err
}
