package testkit

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// DialWithHost opens a WebSocket to u sending host as the Host header and
// returns the HTTP status of a refused upgrade, 0 when the upgrade
// succeeded (the connection is closed at once). A dial that gets no HTTP
// answer at all fails the test.
func DialWithHost(t testing.TB, u, host string, timeout time.Duration) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{Host: host})
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err == nil {
		_ = c.CloseNow()
		return 0
	}
	if resp == nil {
		t.Fatalf("dial with Host %q: %v", host, err)
	}
	return resp.StatusCode
}
