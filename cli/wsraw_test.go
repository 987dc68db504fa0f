package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/internal/testkit"
)

// testTimeout bounds every wait in this package's tests.
const testTimeout = 10 * time.Second

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// rawConn is a minimal JSON-RPC peer over a real WebSocket, for tests that
// check what `serve` does on the wire.
type rawConn struct {
	t      testing.TB
	c      *websocket.Conn
	nextID int
}

// rawMsg is a JSON-RPC message as read.
type rawMsg struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func dial(t testing.TB, url string, _ any) *rawConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, url, nil)
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.SetReadLimit(64 << 20)
	t.Cleanup(func() { _ = c.CloseNow() })
	return &rawConn{t: t, c: c}
}

// request sends a request and returns its id.
func (w *rawConn) request(method string, params any) int {
	w.t.Helper()
	w.nextID++
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": w.nextID, "method": method, "params": params})
	must(w.t, err)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	must(w.t, w.c.Write(ctx, websocket.MessageText, b))
	return w.nextID
}

// readMsg returns the next message or the error that ended the connection.
func (w *rawConn) readMsg(timeout time.Duration) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	_, b, err := w.c.Read(ctx)
	return b, err //nolint:wrapcheck // test helper
}

// call sends a request and returns its result, skipping notifications.
func (w *rawConn) call(method string, params any) json.RawMessage {
	w.t.Helper()
	id := w.request(method, params)
	for {
		raw, err := w.readMsg(testTimeout)
		if err != nil {
			w.t.Fatalf("%s: %v", method, err)
		}
		var m rawMsg
		must(w.t, json.Unmarshal(raw, &m))
		if m.ID == nil || *m.ID != id {
			continue
		}
		if m.Error != nil {
			w.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
		}
		return m.Result
	}
}

func (w *rawConn) initialize(clientID string, _, _ any) json.RawMessage {
	w.t.Helper()
	return w.call("initialize", map[string]any{
		"channel": "ahp-root://", "protocolVersions": []string{"1.0.0", "0.9.0"}, "clientId": clientID,
	})
}

func (w *rawConn) createSession(uri string) {
	w.t.Helper()
	w.call("createSession", map[string]any{"channel": uri})
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// syncBuffer is the shared goroutine-safe buffer.
type syncBuffer = testkit.SyncBuffer

// writeConfig writes text as the config file under $XDG_CONFIG_HOME (the
// test sets it) and returns the file's path.
func writeConfig(t testing.TB, text string) string {
	t.Helper()
	path := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "ahptui", "config.toml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o700))
	must(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}
