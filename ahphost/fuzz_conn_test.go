package ahphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// fuzzMethods are the methods FuzzCommandParams exercises: every request
// handler, the two client notifications and an unknown method.
func fuzzMethods() []string {
	var ms []string
	for m := range handlers {
		if m != "test/panic" {
			ms = append(ms, m)
		}
	}
	sort.Strings(ms)
	return append(ms, "dispatchAction", "unsubscribe", "nope/unknown")
}

// FuzzCommandParams sends arbitrary params for every command over a real
// WebSocket connection to a running host (after initialize and a session
// exist) and then requires a well-formed ping to be answered. A command may
// only end the connection by the documented normal closure; a 1011 close
// (a recovered panic) fails. After each input the connection is closed and
// the host must return to its baseline goroutine count (no leak).
func FuzzCommandParams(f *testing.F) {
	methods := fuzzMethods()
	seeds := []string{
		`{"channel":"ahp-root://","cursor":"czox","limit":9223372036854775807}`,
		`{"channel":"ahp-chat:/s","cursor":"dDox","limit":9223372036854775807}`,
		`{"channel":"ahp-root://","protocolVersions":["1.0.0"],"clientId":"x","initialSubscriptions":["ahp-root://","ahp-root://"]}`,
		`{"channel":"ahp-root://","clientId":"fz","lastSeenServerSeq":0,"subscriptions":["ahp-chat:/s"]}`,
		`{"channel":"ahp-chat:/s","view":{"turns":-1}}`,
		`{"channel":"ahp-chat:/s","clientSeq":1,"action":{"type":"chat/turnStarted","turnId":"t","message":{"text":"hi","origin":{"kind":"user"}}}}`,
		`{"channel":"ahp-session:/s","chat":"ahp-chat:/s2","source":{"kind":"fork","chat":"ahp-chat:/s","turnId":"x"}}`,
		`null`, `[]`, `{}`, `"x"`, `{"channel":null}`,
	}
	for i := range methods {
		for _, s := range seeds {
			f.Add(uint8(i), []byte(s))
		}
	}
	h, err := New(Options{NoToken: true, Dir: f.TempDir(), Agent: idleAgent{}})
	if err != nil {
		f.Fatal(err)
	}
	u, err := h.Listen("127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = h.Close() })
	setup := dial(f, u, nil)
	setup.initialize("fz", nil, nil)
	setup.createSession("ahp-session:/s")
	setup.close()
	waitUntil(f, "setup connection gone", func() bool { return h.Connections() == 0 })
	time.Sleep(50 * time.Millisecond)
	baseline := runtime.NumGoroutine()

	f.Fuzz(func(t *testing.T, mi uint8, params []byte) {
		method := methods[int(mi)%len(methods)]
		if !json.Valid(params) {
			params, _ = json.Marshal(string(params))
		}
		w := dial(t, u, nil)
		defer w.close()
		w.initialize(fmt.Sprintf("fz-%d", time.Now().UnixNano()), []string{"ahp-root://"}, nil)
		id := ""
		if method != "dispatchAction" && method != "unsubscribe" {
			id = `"id":77,`
		}
		w.sendRaw(`{"jsonrpc":"2.0",` + id + `"method":` + mustJSON(t, method) + `,"params":` + string(params) + `}`)
		if err := pingAnswered(w); err != nil {
			var ce websocket.CloseError
			if errors.As(err, &ce) && ce.Code == websocket.StatusNormalClosure {
				// Documented closes (e.g. after -32005); the host must still serve others.
				w2 := dial(t, u, nil)
				defer w2.close()
				if err := pingAnswered(w2); err != nil {
					t.Fatalf("%s %s: host unresponsive afterwards: %v", method, clip(params), err)
				}
			} else {
				t.Fatalf("%s %s: ping not answered: %v", method, clip(params), err)
			}
		}
		w.close()
		deadline := time.Now().Add(testTimeout)
		for h.Connections() > 0 || runtime.NumGoroutine() > baseline+4 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d connections, %d goroutines (baseline %d) after close",
					method, h.Connections(), runtime.NumGoroutine(), baseline)
			}
			time.Sleep(2 * time.Millisecond)
		}
	})
}

// pingAnswered sends a ping and waits for its answer, skipping other
// messages; it returns the read error if the connection ends first.
func pingAnswered(w *wsClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":424242,"method":"ping","params":{"channel":"ahp-root://"}}`)); err != nil {
		return err
	}
	for {
		raw, err := w.readMsg(testTimeout)
		if err != nil {
			return err
		}
		var m struct {
			ID     *uint64         `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(raw, &m) == nil && m.ID != nil && *m.ID == 424242 {
			if string(m.Result) != "null" {
				return fmt.Errorf("ping answered %s", clip(raw))
			}
			return nil
		}
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
