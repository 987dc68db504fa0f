package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/segment"
)

// hostileToken is the connection token; the hostile host reflects it back
// in every error message it can, and it must never reach a log line or an
// error string.
const hostileToken = "hostile-Secret-Token-9f8e7d6c"

const hostileChat = "ahp-chat:/c1"

func hostileAction(ch string, seq uint64, action string) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"action","params":{"channel":%q,"serverSeq":%d,"action":%s}}`, ch, seq, action)
}

func deltaAction(s string) string {
	return `{"type":"chat/delta","turnId":"t1","partId":"p1","content":` + mustJSONString(s) + `}`
}

func mustJSONString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// hostileHost is a scripted AHP peer that answers the handshake correctly
// and then misbehaves in every way the wire allows.
type hostileHost struct {
	srv       *httptest.Server
	conns     atomic.Int32
	answered  atomic.Int32 // responses the client sent to the request flood
	junkSent  chan struct{}
	onceJunk  sync.Once
	floodSize int
}

func newHostileHost(t *testing.T) *hostileHost {
	h := &hostileHost{junkSent: make(chan struct{}), floodSize: 300}
	h.srv = serveWS(t, h.serve)
	return h
}

func (h *hostileHost) url() string { return wsURL(h.srv) }

func (h *hostileHost) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	ws.SetReadLimit(-1)
	ctx := r.Context()
	first := h.conns.Add(1) == 1
	send := func(b []byte) bool { return ws.Write(ctx, websocket.MessageText, b) == nil }
	reflect := "bad credentials " + hostileToken + " (Bearer " + hostileToken + ")"
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) != nil {
			return
		}
		if m.IsResponse() {
			h.answered.Add(1)
			continue
		}
		if !m.IsRequest() {
			continue
		}
		id := *m.ID
		switch m.Method {
		case ahpwire.MethodInitialize, ahpwire.MethodReconnect:
			res, _ := ahpwire.NewResult(id, ahpwire.InitializeResult{ProtocolVersion: "1.0.0", ServerSeq: 0})
			out, _ := json.Marshal(res)
			if !send(out) {
				return
			}
		case ahpwire.MethodSubscribe:
			var p ahpwire.SubscribeParams
			_ = json.Unmarshal(m.Params, &p)
			snap, _ := ahpwire.NewSnapshot(p.Channel, ahpwire.ChatState{Resource: p.Channel, Title: "x"}, 0)
			res, _ := ahpwire.NewResult(id, ahpwire.SubscribeResult{Snapshot: &snap})
			out, _ := json.Marshal(res)
			if !send(out) || !first {
				continue
			}
			h.junk(ctx, ws, send)
		case ahpwire.MethodListSessions:
			// Duplicate responses, the second with a wrong result type.
			send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"items":"not a list"}}`, id))
			send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"items":[]}}`, id))
		case ahpwire.MethodPing:
			// An error that reflects the token.
			send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"error":{"code":-32000,"message":%s,"data":%s}}`, id,
				mustJSONString(reflect), mustJSONString(reflect)))
		case ahpwire.MethodFetchTurns:
			// Never answered: the request must still resolve (timeout or drop).
		case ahpwire.MethodDisposeSession:
			// A response with a result and an error at once, then one with neither.
			send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":null,"error":{"code":1,"message":%s}}`, id, mustJSONString(reflect)))
			send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d}`, id))
		default:
			res, _ := ahpwire.NewResult(id, nil)
			out, _ := json.Marshal(res)
			send(out)
		}
	}
}

// junk is the hostile script sent once, after the first subscribe.
func (h *hostileHost) junk(ctx context.Context, ws *websocket.Conn, send func([]byte) bool) {
	frames := [][]byte{
		[]byte("not json {"),
		[]byte(""),
		[]byte("null"),
		[]byte(`"a string"`),
		[]byte(`[1,2,3]`),
		[]byte(`[` + string(hostileAction(hostileChat, 1, deltaAction("batched"))) + `]`),
		[]byte(`{"jsonrpc":"2.0","id":999999,"result":{}}`),
		[]byte(`{"jsonrpc":"2.0","id":-1,"error":{"code":1,"message":"` + hostileToken + `"}}`),
		[]byte(`{"jsonrpc":"2.0","id":"str","result":{}}`),
		[]byte(`{"jsonrpc":"1.0","method":"action","params":"string"}`),
		[]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":5,"serverSeq":"x","action":[]}}`),
		[]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"` + hostileChat + `","serverSeq":-3,"action":{}}}`),
		[]byte(`{"jsonrpc":"2.0","method":"root/sessionAdded","params":[1,2]}`),
		[]byte(`{"jsonrpc":"2.0","method":"auth/required","params":{"channel":7,"resource":"` + hostileToken + `"}}`),
		[]byte(`{"jsonrpc":"2.0","method":"no/such/method","params":{"x":"` + hostileToken + `"}}`),
		hostileAction(hostileChat, 1, deltaAction("one")),
		hostileAction(hostileChat, 1, deltaAction("one again (duplicate)")),
		hostileAction(hostileChat, 0, deltaAction("zero (backwards)")),
		hostileAction(hostileChat, 3, deltaAction("three")),
		hostileAction(hostileChat, 2, deltaAction("two (backwards)")),
		hostileAction(hostileChat, 4, `{"type":"evil/unknown","payload":{"x":"`+hostileToken+`"}}`),
		hostileAction(hostileChat, 5, `{"type":"chat/delta","turnId":7,"partId":[],"content":{}}`),
		hostileAction("ahp-chat:/never-subscribed", 6, deltaAction("stranger")),
		[]byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"` + hostileChat + `","serverSeq":7,"action":"nope"}}`),
		hostileAction(hostileChat, 1<<63, deltaAction("huge")),
		hostileAction(hostileChat, 1<<63-1, deltaAction("after huge (backwards)")),
		hostileAction(hostileChat, 1<<63, deltaAction("huge again (duplicate)")),
	}
	for _, f := range frames {
		if !send(f) {
			return
		}
	}
	if ws.Write(ctx, websocket.MessageBinary, hostileAction(hostileChat, 1<<63+1, deltaAction("binary"))) != nil {
		return
	}
	// A server→client request flood.
	for i := range h.floodSize {
		req, _ := ahpwire.NewRequest(uint64(1000+i), "resourceRead", map[string]string{"channel": ahpwire.RootURI, "uri": "file:///etc/passwd"})
		out, _ := json.Marshal(req)
		if !send(out) {
			return
		}
	}
	h.onceJunk.Do(func() { close(h.junkSent) })
}

// TestHostileHostOverLoopback runs a scripted hostile host over a real
// loopback WebSocket and checks that the client survives it: no panic,
// every pending request resolves, the consumer sees each channel's
// envelopes once and in order, and the token appears in no log line and
// no error string.
func TestHostileHostOverLoopback(t *testing.T) {
	base := testkit.Goroutines()
	h := newHostileHost(t)
	var logs testkit.SyncBuffer
	o := testOptions(t, h.url())
	o.Token = hostileToken
	o.SessionsLimit = -1
	o.RequestTimeout = 2 * time.Second
	o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	k := consume(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	var errs []error
	if _, err := c.Subscribe(ctx, hostileChat, nil); err != nil {
		errs = append(errs, err)
	}
	select {
	case <-h.junkSent:
	case <-time.After(15 * time.Second):
		t.Fatal("the hostile script never finished")
	}

	// Every pending request resolves, with a result or an error.
	type call struct {
		name string
		f    func(context.Context) error
	}
	calls := []call{
		{"listSessions", func(ctx context.Context) error { _, err := c.ListSessions(ctx, 10, ""); return err }},
		{"ping", c.Ping},
		{"fetchTurns", func(ctx context.Context) error { return c.FetchTurns(ctx, hostileChat, "") }},
		{"disposeSession", func(ctx context.Context) error { return c.DisposeSession(ctx, "ahp-session:/s") }},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, cl := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// No deadline of ours: Options.RequestTimeout (2 s) must bound
			// the request the host never answers.
			done := make(chan error, 1)
			go func() { done <- cl.f(context.Background()) }()
			select {
			case err := <-done:
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s: %w", cl.name, err))
					mu.Unlock()
				}
				// The request the host never answers ends by RequestTimeout
				// (or with the link), not by an answer.
				if cl.name == "fetchTurns" && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrConnectionLost) {
					t.Errorf("fetchTurns, never answered, ended with %v; want the request timeout", err)
				}
			case <-time.After(8 * time.Second):
				t.Errorf("%s never resolved", cl.name)
			}
		}()
	}
	wg.Wait()
	if len(errs) == 0 {
		t.Error("no call failed although the host answered ping with an error")
	}
	for _, err := range errs {
		if strings.Contains(err.Error(), hostileToken) {
			t.Errorf("token in error: %v", err)
		}
		t.Logf("resolved with: %v", err)
	}

	// The flood was answered (or at least the link survived it): the client
	// still works, and the host's answer to ping (an error) arrives masked.
	if err := retryPing(c); err == nil || !strings.Contains(err.Error(), "bad credentials") || strings.Contains(err.Error(), hostileToken) {
		t.Errorf("ping after flood: %v; want the host's masked bad-credentials error", err)
	}
	// Every envelope the script sent has reached the consumer (the last one
	// required is serverSeq 2^63) before the stream is read.
	k.waitFor("the script's last envelope", 10*time.Second, func(evs []Event) bool {
		for _, e := range evs {
			if ev, ok := e.(EnvelopeEvent); ok && ev.Envelope.Channel == hostileChat && ev.Envelope.ServerSeq == 1<<63 {
				return true
			}
		}
		return false
	})
	k.stop()

	// Per channel: strictly increasing serverSeq, no duplicates.
	var order []uint64 // serverSeqs delivered for hostileChat
	last := map[string]uint64{}
	seen := map[string]int{}
	for _, e := range k.snapshot() {
		ev, ok := e.(EnvelopeEvent)
		if !ok {
			if s, ok := e.(ConnStateEvent); ok && s.State.Err != nil && strings.Contains(s.State.Err.Error(), hostileToken) {
				t.Errorf("token in connection state error: %v", s.State.Err)
			}
			continue
		}
		ch, seq := ev.Envelope.Channel, ev.Envelope.ServerSeq
		if n, ok := last[ch]; ok && seq <= n {
			t.Errorf("channel %s: envelope %d after %d", ch, seq, n)
		}
		last[ch] = seq
		if ch == hostileChat {
			order = append(order, seq)
		}
		seen[ch]++
		t.Logf("delivered %s #%d %T", ch, seq, ev.Envelope.Action)
		if d, ok := ev.Envelope.Action.(*ahpwire.ChatDelta); ok && strings.Contains(d.Content, "(") {
			t.Errorf("delivered a rejected envelope: %q (seq %d)", d.Content, seq)
		}
	}
	// Exactly the in-order envelopes, each once; undecodable actions
	// arrive as unknown rather than being lost. (The binary frame, 2^63+1,
	// is tolerated but not required.)
	want := []uint64{1, 3, 4, 5, 7, 1 << 63}
	if len(order) < len(want) || !slices.Equal(order[:len(want)], want) || len(order) > len(want)+1 {
		t.Errorf("delivered serverSeqs %v, want %v (+ optionally %d)", order, want, uint64(1<<63+1))
	}
	t.Logf("delivered per channel: %v (last %v); flood answers: %d; connections: %d", seen, last, h.answered.Load(), h.conns.Load())
	if err := c.Close(); err != nil && strings.Contains(err.Error(), hostileToken) {
		t.Errorf("token in close error: %v", err)
	}
	if l := logs.String(); strings.Contains(l, hostileToken) {
		i := strings.Index(l, hostileToken)
		t.Errorf("token in logs: …%s…", l[max(0, i-200):min(len(l), i+100)])
	}
	if !strings.Contains(logs.String(), "level=") {
		t.Error("nothing was logged about the junk")
	}
	h.srv.CloseClientConnections()
	testkit.CheckNoLeak(t, base+2)
}

// retryPing pings until the host answers (with a result or its error),
// through a reconnection the junk may have caused.
func retryPing(c *Client) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := c.Ping(ctx)
		cancel()
		transient := errors.Is(err, ErrNotConnected) || errors.Is(err, ErrConnectionLost)
		if !transient || time.Now().After(deadline) {
			return err
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestHostileSegmentsAfterHandshake sends ahp/messageSegment abuse once the
// handshake is done: every case either closes the link with the segment
// close code and reconnects, or is ignored; no panic, and the token never
// reaches a log line or the reconnect cause.
func TestHostileSegmentsAfterHandshake(t *testing.T) {
	seg := func(params string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"ahp/messageSegment","params":` + params + `}`)
	}
	cases := map[string][]byte{
		"huge total":        seg(`{"groupId":"g","index":0,"total":1000000000000,"data":"eyJh"}`),
		"negative index":    seg(`{"groupId":"g","index":-1,"total":2,"data":"eyJh"}`),
		"zero total":        seg(`{"groupId":"g","index":0,"total":0,"data":"eyJh"}`),
		"index past total":  seg(`{"groupId":"g","index":5,"total":2,"data":"eyJh"}`),
		"not base64":        seg(`{"groupId":"g","index":0,"total":2,"data":"!!!` + hostileToken + `"}`),
		"empty group id":    seg(`{"groupId":"","index":0,"total":2,"data":"eyJh"}`),
		"params not object": seg(`"` + hostileToken + `"`),
		"wrong types":       seg(`{"groupId":7,"index":"0","total":[],"data":{}}`),
		"one-part garbage":  seg(`{"groupId":"g","index":0,"total":1,"data":"bm90IGpzb24="}`),
		"nested segment":    seg(`{"groupId":"g","index":0,"total":1,"data":"eyJqc29ucnBjIjoiMi4wIiwibWV0aG9kIjoiYWhwL21lc3NhZ2VTZWdtZW50IiwicGFyYW1zIjp7Imdyb3VwSWQiOiJoIiwiaW5kZXgiOjAsInRvdGFsIjoxLCJkYXRhIjoiZTMwPSJ9fQ=="}`),
		"as request":        []byte(`{"jsonrpc":"2.0","id":5,"method":"ahp/messageSegment","params":{"groupId":"g","index":0,"total":2,"data":"eyJh"}}`),
	}
	for name, frame := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFakeHostSending(t, frame)
			var logs testkit.SyncBuffer
			o := testOptions(t, f.url())
			o.Token = hostileToken
			o.SessionsLimit = -1
			o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, a := startClient(t, o)
			var closed websocket.StatusCode = -1
			select {
			case closed = <-f.closes:
			case <-time.After(time.Second):
			}
			if closed != -1 {
				// The fake host repeats the abuse on every connection, so
				// the client keeps closing and reconnecting: check it
				// closed with the segment code and went on reconnecting.
				if closed != segment.CloseCode {
					t.Errorf("closed with %d, want %d", closed, segment.CloseCode)
				}
				a.waitFor("reconnecting", 10*time.Second, func(evs []Event) bool { return countState(evs, Reconnecting) > 0 })
			} else {
				// Ignored: the link still works.
				retryWithin(t, "ping", time.Second, 5*time.Second, func(ctx context.Context) error { return c.Ping(ctx) })
			}
			cause := ""
			for _, e := range a.snapshot() {
				if s, ok := e.(ConnStateEvent); ok && s.State.Err != nil {
					if strings.Contains(s.State.Err.Error(), hostileToken) {
						t.Errorf("token in reconnect cause: %v", s.State.Err)
					}
					if _, ok := segment.RuleOf(s.State.Err); !ok && s.State.Phase == Reconnecting {
						t.Errorf("reconnect cause %v is not a segment rule violation", s.State.Err)
					}
					if cause == "" {
						cause = s.State.Err.Error()
					}
				}
			}
			_ = c.Close()
			if l := logs.String(); strings.Contains(l, hostileToken) {
				t.Errorf("token in logs:\n%s", l)
			}
			t.Logf("close code %d: %s", closed, cause)
		})
	}
}
