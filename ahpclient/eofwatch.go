package ahpclient

import (
	"io"
	"net/http"

	"github.com/ahptui/ahptui/internal/wseof"
)

// The read loop asks a wseof.Watch after each message whether the stream
// under the WebSocket ended (see conn.readLoop and package wseof).

// watchedClient returns a copy of hc (nil: http.DefaultClient) whose
// transport hands coder/websocket the upgraded connection through w.
func watchedClient(hc *http.Client, w *wseof.Watch) *http.Client {
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
	w    *wseof.Watch
}

// RoundTrip implements http.RoundTripper.
func (t watchTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		return resp, err
	}
	if rwc, ok := resp.Body.(io.ReadWriteCloser); ok {
		resp.Body = t.w.Body(rwc)
	}
	return resp, nil
}
