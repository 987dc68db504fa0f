package ahpclient

import (
	"io"
	"net/http"
	"sync/atomic"
)

// eofWatch records that the byte stream under one WebSocket connection
// ended (the peer closed or half-closed it, or the read failed). The read
// loop asks it after each message: coder/websocket v1.8.15 (the newest
// release; read.go, msgReader.Read) reports such an end between fragments
// as the end of the message, so a message read while the stream ended may
// be cut off (see conn.readLoop).
type eofWatch struct {
	ended atomic.Bool
}

// seen reports whether the stream has ended.
func (w *eofWatch) seen() bool { return w.ended.Load() }

// watchedClient returns a copy of hc (nil: http.DefaultClient) whose
// transport hands coder/websocket the upgraded connection through w.
func watchedClient(hc *http.Client, w *eofWatch) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	wc := *hc
	base := wc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	wc.Transport = watchTransport{base: base, w: w}
	return &wc
}

// watchTransport wraps the body of a 101 Switching Protocols response, the
// stream coder/websocket reads the connection from.
type watchTransport struct {
	base http.RoundTripper
	w    *eofWatch
}

// RoundTrip implements http.RoundTripper.
func (t watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		return resp, err
	}
	if rwc, ok := resp.Body.(io.ReadWriteCloser); ok {
		resp.Body = &watchedBody{ReadWriteCloser: rwc, w: t.w}
	}
	return resp, nil
}

// watchedBody is the upgraded connection; a failed or ended read marks w.
type watchedBody struct {
	io.ReadWriteCloser
	w *eofWatch
}

// Read implements io.Reader.
func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadWriteCloser.Read(p)
	if err != nil {
		b.w.ended.Store(true)
	}
	return n, err
}
