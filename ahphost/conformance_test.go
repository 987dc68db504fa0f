package ahphost

import (
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestInvalidRequestsAreAnswered: every frame that is not a valid JSON-RPC
// 2.0 request or notification gets an error answer with the request's id
// (or null), and the connection keeps working.
func TestInvalidRequestsAreAnswered(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}})
	w := dial(t, u, nil)
	tests := []struct {
		name, frame, want string
	}{
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping","params":{"channel":"ahp-root://"}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`},
		{"no jsonrpc", `{"id":5,"method":"ping","params":{"channel":"ahp-root://"}}`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600`},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":6,"method":"ping","params":{"channel":"ahp-root://"}}`, `{"jsonrpc":"2.0","id":6,"error":{"code":-32600`},
		{"notification without jsonrpc", `{"method":"unsubscribe","params":{"channel":"ahp-root://"}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`},
		{"negative id", `{"jsonrpc":"2.0","id":-3,"method":"ping"}`, `{"jsonrpc":"2.0","id":-3,"error":{"code":-32600`},
		{"no method", `{"jsonrpc":"2.0","params":{}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`},
		{"array", `[1,2]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w.sendRaw(tc.frame)
			if got := string(w.next()); !strings.HasPrefix(got, tc.want) {
				t.Fatalf("got %s, want prefix %s", got, tc.want)
			}
		})
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"})
}

// TestRejectedConnectionLogIsRateLimited: 60 unauthenticated connection
// attempts produce a handful of WARN lines, the last of which reports how
// many were suppressed.
func TestRejectedConnectionLogIsRateLimited(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u := startHost(t, Options{Token: "secret-token", Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	_ = h
	base := strings.Split(u, "?")[0]
	base = "http" + strings.TrimPrefix(base, "ws")
	for range 60 {
		resp, err := http.Get(base)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	warns := strings.Count(logs.String(), "level=WARN")
	if warns == 0 || warns > rejectLogBurst+2 {
		t.Fatalf("%d WARN lines for 60 rejected connections, want 1..%d:\n%s", warns, rejectLogBurst+2, logs.String())
	}
	if strings.Contains(logs.String(), "secret-token") {
		t.Fatal("token in the log")
	}
	// After the bucket refills, the next line reports the suppressed count.
	h.rejectLog.mu.Lock()
	h.rejectLog.last = h.rejectLog.last.Add(-2 * rejectLogEvery)
	h.rejectLog.mu.Unlock()
	resp, err := http.Get(base)
	must(t, err)
	_ = resp.Body.Close()
	if !strings.Contains(logs.String(), "suppressed=") {
		t.Fatalf("no suppressed count logged:\n%s", logs.String())
	}
}
