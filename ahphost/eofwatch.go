package ahphost

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
)

// errCutMessage reports a message whose stream ended while it was read:
// coder/websocket v1.8.15 (read.go, msgReader.Read) takes the peer's EOF
// between fragments, or before a frame's payload, for the end of the
// message, so what was read may be its first fragments only.
var errCutMessage = errors.New("peer closed the stream in the middle of a message")

// eofWatch records that the byte stream under one WebSocket connection
// ended (the peer closed or half-closed it, or the read failed). A
// complete message never needs a read past its last byte, so a message
// read while the stream ended is discarded (readMessage).
type eofWatch struct {
	ended atomic.Bool
}

// seen reports whether the stream has ended.
func (w *eofWatch) seen() bool { return w != nil && w.ended.Load() }

// watchedWriter hands websocket.Accept the hijacked connection through w.
type watchedWriter struct {
	http.ResponseWriter
	w    *eofWatch
	cork *corkConn // set to the connection the WebSocket writes to (cork.go)
}

// Hijack implements http.Hijacker.
func (ww watchedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := ww.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("ahphost: response writer cannot be hijacked")
	}
	nc, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	ww.cork.Conn = &watchedConn{Conn: nc, w: ww.w}
	return ww.cork, corkedRW(ww.cork, brw), nil
}

// watchedConn is the hijacked connection; a failed or ended read marks w.
type watchedConn struct {
	net.Conn
	w *eofWatch
}

// Read implements io.Reader.
func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.w.ended.Store(true)
	}
	return n, err
}
