package ahphost

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/segment"
)

// testTimeout bounds every wait in these tests. Every wait ends on an
// event; the bound only turns a hang into a failure, so it is generous:
// the suite runs with -race on a loaded 2-core machine.
const testTimeout = 30 * time.Second

// startHost starts a host on a loopback port and closes it at cleanup.
func startHost(t testing.TB, opts Options) (*Host, string) {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	h, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	u, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h, u
}

// wsClient is a raw frame-level test client.
type wsClient struct {
	t      testing.TB
	c      *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc
	nextID uint64
	// reasm reassembles segments when the test advertised chunking.
	reasm *segment.Reassembler
	// frames counts raw frames received.
	frames int
	// maxFrame is the largest raw frame received.
	maxFrame int
	// pending holds messages read while waiting for something else.
	pending []json.RawMessage
	// seen records every envelope returned by action.
	seen []envelope
}

// dial connects to url with optional headers.
func dial(t testing.TB, url string, hdr http.Header) *wsClient {
	t.Helper()
	c, err := tryDial(url, hdr)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wc := &wsClient{t: t, c: c, ctx: ctx, cancel: cancel}
	t.Cleanup(func() { wc.close() })
	return wc
}

func tryDial(url string, hdr http.Header) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: hdr})
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(64 << 20)
	return c, nil
}

func (w *wsClient) close() {
	w.cancel()
	_ = w.c.CloseNow()
}

// sendRaw writes one text frame.
func (w *wsClient) sendRaw(s string) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(w.ctx, testTimeout)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

// request sends a request and returns its id.
func (w *wsClient) request(method string, params any) uint64 {
	w.t.Helper()
	w.nextID++
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": w.nextID, "method": method, "params": params})
	if err != nil {
		w.t.Fatal(err)
	}
	w.sendRaw(string(b))
	return w.nextID
}

// notify sends a notification.
func (w *wsClient) notify(method string, params any) {
	w.t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		w.t.Fatal(err)
	}
	w.sendRaw(string(b))
}

// readMsg returns the next complete message (reassembling segments when a
// reassembler is set), or an error when the connection ends.
func (w *wsClient) readMsg(timeout time.Duration) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(w.ctx, timeout)
	defer cancel()
	for {
		_, data, err := w.c.Read(ctx)
		if err != nil {
			return nil, err
		}
		w.frames++
		w.maxFrame = max(w.maxFrame, len(data))
		if w.reasm != nil {
			msg, err := w.reasm.Feed(data)
			if err != nil {
				return nil, fmt.Errorf("client reassembly: %w", err)
			}
			if msg == nil {
				continue
			}
			data = msg
		} else if segment.IsSegment(data) {
			return nil, fmt.Errorf("unexpected segment toward a client without chunking")
		}
		return data, nil
	}
}

// next returns the next message, first from pending.
func (w *wsClient) next() json.RawMessage {
	w.t.Helper()
	if len(w.pending) > 0 {
		m := w.pending[0]
		w.pending = w.pending[1:]
		return m
	}
	m, err := w.readMsg(testTimeout)
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	return m
}

// wire is a decoded message for assertions.
type wire struct {
	ID     *uint64         `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func decodeWire(t testing.TB, raw json.RawMessage) wire {
	t.Helper()
	var m wire
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decode %s: %v", clip(raw), err)
	}
	return m
}

// waitFor reads messages until match returns true; others go to pending.
func (w *wsClient) waitFor(what string, match func(wire) bool) wire {
	w.t.Helper()
	for i, raw := range w.pending {
		if m := decodeWire(w.t, raw); match(m) {
			w.pending = append(w.pending[:i], w.pending[i+1:]...)
			return m
		}
	}
	deadline := time.Now().Add(testTimeout)
	for time.Now().Before(deadline) {
		raw, err := w.readMsg(time.Until(deadline))
		if err != nil {
			w.t.Fatalf("waiting for %s: %v", what, err)
		}
		m := decodeWire(w.t, raw)
		if match(m) {
			return m
		}
		w.pending = append(w.pending, raw)
	}
	w.t.Fatalf("timed out waiting for %s", what)
	return wire{}
}

// response waits for the response to id.
func (w *wsClient) response(id uint64) wire {
	w.t.Helper()
	return w.waitFor(fmt.Sprintf("response %d", id), func(m wire) bool {
		return m.ID != nil && *m.ID == id && m.Method == ""
	})
}

// call sends a request and returns its result, failing on an error.
func (w *wsClient) call(method string, params any) json.RawMessage {
	w.t.Helper()
	m := w.response(w.request(method, params))
	if m.Error != nil {
		w.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	return m.Result
}

// callErr sends a request and returns its error code (0 = success).
func (w *wsClient) callErr(method string, params any) (int, wire) {
	w.t.Helper()
	m := w.response(w.request(method, params))
	if m.Error == nil {
		return 0, m
	}
	return m.Error.Code, m
}

// envelope is a decoded action envelope.
type envelope struct {
	Channel   string `json:"channel"`
	ServerSeq uint64 `json:"serverSeq"`
	Origin    *struct {
		ClientID  string
		ClientSeq uint64
	} `json:"origin"`
	RejectionReason string          `json:"rejectionReason"`
	Action          json.RawMessage `json:"action"`
}

func (e envelope) typ() string {
	var a struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(e.Action, &a)
	return a.Type
}

// action waits for an action envelope matching match.
func (w *wsClient) action(what string, match func(envelope) bool) envelope {
	w.t.Helper()
	var got envelope
	w.waitFor(what, func(m wire) bool {
		if m.Method != "action" {
			return false
		}
		var e envelope
		if err := json.Unmarshal(m.Params, &e); err != nil {
			w.t.Fatalf("bad envelope: %v", err)
		}
		if match(e) {
			got = e
			w.seen = append(w.seen, e)
			return true
		}
		return false
	})
	return got
}

// actionOfType waits for an action of the given type on channel.
func (w *wsClient) actionOfType(channel, typ string) envelope {
	w.t.Helper()
	return w.action(channel+" "+typ, func(e envelope) bool { return e.Channel == channel && e.typ() == typ })
}

// closed waits for the connection to end and returns its close status.
func (w *wsClient) closed() websocket.StatusCode {
	w.t.Helper()
	for {
		_, err := w.readMsg(testTimeout)
		if err != nil {
			return websocket.CloseStatus(err)
		}
	}
}

// initialize performs a successful initialize with the given extra params.
func (w *wsClient) initialize(clientID string, subs []string, chunking map[string]any) json.RawMessage {
	w.t.Helper()
	p := map[string]any{
		"channel": "ahp-root://", "protocolVersions": []string{"1.0.0", "0.9.0"},
		"clientId": clientID, "initialSubscriptions": subs,
	}
	if chunking != nil {
		p["capabilities"] = map[string]any{"chunking": chunking}
	}
	return w.call("initialize", p)
}

// createSession creates a session and returns its default chat URI.
func (w *wsClient) createSession(uri string) string {
	w.t.Helper()
	w.call("createSession", map[string]any{"channel": uri})
	var res struct {
		Snapshot struct {
			State struct {
				Lifecycle   string `json:"lifecycle"`
				DefaultChat string `json:"defaultChat"`
			} `json:"state"`
		} `json:"snapshot"`
	}
	must(w.t, json.Unmarshal(w.call("subscribe", map[string]any{"channel": uri}), &res))
	if res.Snapshot.State.Lifecycle != "ready" || res.Snapshot.State.DefaultChat == "" {
		w.t.Fatalf("session %s not ready: %+v", uri, res.Snapshot.State)
	}
	return res.Snapshot.State.DefaultChat
}

// sendMessage dispatches chat/turnStarted.
func (w *wsClient) sendMessage(chat, turnID, text string, clientSeq uint64) {
	w.t.Helper()
	w.notify("dispatchAction", map[string]any{
		"channel": chat, "clientSeq": clientSeq,
		"action": map[string]any{
			"type": "chat/turnStarted", "turnId": turnID, "startedAt": "2026-11-22T00:00:00.000Z",
			"message": map[string]any{"text": text, "origin": map[string]any{"kind": "user"}},
		},
	})
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// waitUntil polls cond until it is true or the test times out.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// newClientReasm returns a test client reassembler with these limits.
func newClientReasm(frame, message int64) *segment.Reassembler {
	return segment.NewReassembler(segment.Limits{MaxFrameBytes: frame, MaxMessageBytes: message}, nil)
}
