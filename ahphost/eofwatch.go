package ahphost

import (
	"bufio"
	"errors"
	"net"
	"net/http"

	"github.com/ahptui/ahptui/internal/wseof"
)

// errCutMessage reports a message whose stream ended while it was read
// (package wseof).
var errCutMessage = wseof.ErrCutMessage

// watchedWriter hands websocket.Accept the hijacked connection through w.
type watchedWriter struct {
	http.ResponseWriter
	w    *wseof.Watch
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
	ww.cork.Conn = ww.w.Conn(nc)
	return ww.cork, corkedRW(ww.cork, brw), nil
}
