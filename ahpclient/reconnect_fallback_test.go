package ahpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// strictHost is a scripted AHP peer that, like a strict real host,
// refuses a second handshake on a connection it considers initialized, and
// answers reconnect with a caller-chosen result.
type strictHost struct {
	srv *httptest.Server
	// reconnectResult returns the raw result for the n-th reconnect (1-based).
	reconnectResult func(n int) string
	// reconnectError answers reconnect with -32602; with
	// reconnectErrorUsed the connection still counts as initialized.
	reconnectError, reconnectErrorUsed bool
	// initTooLarge answers -32050 to an initialize asking for more than
	// the root channel.
	initTooLarge bool
	// version is the protocolVersion initialize answers ("" = 1.0.0).
	version string
	// reconnectParams are the params of each reconnect, in order.
	reconnectParams []json.RawMessage

	mu         sync.Mutex
	cur        *websocket.Conn
	conns      int
	inits      int
	reconnects int
	refused    int // handshakes refused because the connection was initialized
	tooLarge   int // initialize answered -32050
}

func newStrictHost(t *testing.T, reconnectResult func(n int) string) *strictHost {
	h := &strictHost{reconnectResult: reconnectResult}
	h.srv = serveWS(t, h.serve)
	return h
}

func (h *strictHost) url() string { return wsURL(h.srv) }

// kill closes the current connection abruptly.
func (h *strictHost) kill() {
	h.mu.Lock()
	ws := h.cur
	h.mu.Unlock()
	if ws != nil {
		_ = ws.CloseNow()
	}
}

func (h *strictHost) counts() (conns, inits, reconnects, refused int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.conns, h.inits, h.reconnects, h.refused
}

// initialSubs returns initialize's initialSubscriptions.
func initialSubs(params json.RawMessage) []string {
	var p ahpwire.InitializeParams
	_ = json.Unmarshal(params, &p)
	return p.InitialSubscriptions
}

func (h *strictHost) serve(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer ws.CloseNow()
	h.mu.Lock()
	h.cur = ws
	h.conns++
	h.mu.Unlock()
	ctx := r.Context()
	ready := false
	for {
		_, b, err := ws.Read(ctx)
		if err != nil {
			return
		}
		var m ahpwire.Message
		if json.Unmarshal(b, &m) != nil || !m.IsRequest() {
			continue
		}
		var out string
		id := *m.ID
		h.mu.Lock()
		switch {
		case (m.Method == ahpwire.MethodInitialize || m.Method == ahpwire.MethodReconnect) && ready:
			h.refused++
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"error":{"code":-32600,"message":"connection already initialized"}}`
		case m.Method == ahpwire.MethodInitialize && h.initTooLarge && len(initialSubs(m.Params)) > 1:
			h.tooLarge++
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"error":{"code":-32050,"message":"message too large","data":{"size":99999999,"limit":1000}}}`
		case m.Method == ahpwire.MethodInitialize:
			h.inits++
			ready = true
			v := h.version
			if v == "" {
				v = "1.0.0"
			}
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"result":{"protocolVersion":"` + v + `","serverSeq":0,"snapshots":[]}}`
		case m.Method == ahpwire.MethodReconnect && h.reconnectError:
			h.reconnects++
			ready = h.reconnectErrorUsed
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"error":{"code":-32602,"message":"unknown clientId"}}`
		case m.Method == ahpwire.MethodReconnect:
			h.reconnects++
			h.reconnectParams = append(h.reconnectParams, m.Params)
			ready = true // the host took the connection as resumed
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"result":` + h.reconnectResult(h.reconnects) + `}`
		case m.Method == ahpwire.MethodSubscribe:
			var p ahpwire.SubscribeParams
			_ = json.Unmarshal(m.Params, &p)
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"result":{"snapshot":{"resource":"` + p.Channel +
				`","state":{"resource":"` + p.Channel + `","title":"x","status":1,"modifiedAt":"2026-01-01T00:00:00.000Z","turns":[]},"fromSeq":0}}}`
		default:
			out = `{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"result":null}`
		}
		h.mu.Unlock()
		if ws.Write(ctx, websocket.MessageText, []byte(out)) != nil {
			return
		}
	}
}

// An unusable reconnect result (unknown type or undecodable) must not make
// the client send initialize on the connection the host considers resumed:
// it initializes on a fresh transport, exactly once, and the next drop
// resumes with reconnect again.
func TestUnusableReconnectResultInitializesOnFreshTransport(t *testing.T) {
	for name, bad := range map[string]string{
		"unknown type": `{"type":"teleport"}`,
		"undecodable":  `[1,2,3]`,
	} {
		t.Run(name, func(t *testing.T) {
			h := newStrictHost(t, func(n int) string {
				if n == 1 {
					return bad
				}
				return `{"type":"replay","actions":[],"missing":[]}`
			})
			base := testkit.Goroutines()
			o := testOptions(t, h.url())
			o.SessionsLimit = -1
			c, a := startClient(t, o)
			h.kill()
			a.waitFor("reinitialized", 15*time.Second, func(evs []Event) bool {
				return hasEvent(evs, func(e ConnStateEvent) bool {
					return e.State.Phase == Connected && e.State.Recovery == RecoveryReinitialized
				})
			})
			conns, inits, reconnects, refused := h.counts()
			if refused != 0 || inits != 2 || reconnects != 1 || conns != 3 {
				t.Fatalf("conns %d, initialize %d, reconnect %d, refused %d; want 3, 2, 1, 0", conns, inits, reconnects, refused)
			}
			if err := c.Ping(context.Background()); err != nil {
				t.Fatalf("Ping after fallback: %v", err)
			}
			// The fallback succeeded, so the next drop resumes normally.
			h.kill()
			evs := a.waitFor("replayed", 15*time.Second, func(evs []Event) bool {
				return hasEvent(evs, func(e ConnStateEvent) bool {
					return e.State.Phase == Connected && e.State.Recovery == RecoveryReplay
				})
			})
			if n := countState(evs, Failed); n != 0 {
				t.Fatalf("client failed: %s", describeTail(evs, 6))
			}
			if _, _, reconnects, refused := h.counts(); reconnects != 2 || refused != 0 {
				t.Fatalf("reconnect %d, refused %d; want 2, 0", reconnects, refused)
			}
			// Every transport of the fallback is gone after Close.
			_ = c.Close()
			a.stop()
			testkit.CheckNoLeak(t, base)
		})
	}
}

// A host that refuses reconnect with a JSON-RPC error yet takes the
// connection as used (it also refuses the initialize that follows there)
// gets the fallback initialize on a fresh connection.
func TestRefusedFallbackInitializeRetriesOnFreshTransport(t *testing.T) {
	h := newStrictHost(t, func(n int) string { return "" })
	h.reconnectError, h.reconnectErrorUsed = true, true
	o := testOptions(t, h.url())
	o.SessionsLimit = -1
	_, a := startClient(t, o)
	h.kill()
	evs := a.waitFor("reinitialized", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool {
			return e.State.Phase == Connected && e.State.Recovery == RecoveryReinitialized
		})
	})
	conns, inits, reconnects, refused := h.counts()
	// conn 2: reconnect (error, connection marked used) + initialize
	// (refused); conn 3: initialize.
	if conns != 3 || inits != 2 || reconnects != 1 || refused != 1 || countState(evs, Reconnecting) != 1 {
		t.Fatalf("conns %d, initialize %d, reconnect %d, refused %d; want 3, 2, 1, 1; events: %s",
			conns, inits, reconnects, refused, describeTail(evs, 8))
	}
}

// When the fallback initialize is answered -32050 (the old subscriptions'
// snapshots are too large together), the client initializes with the root
// channel alone and reports the others lost instead of looping.
func TestFallbackInitializeTooLargeKeepsRootOnly(t *testing.T) {
	h := newStrictHost(t, func(n int) string { return "" })
	h.reconnectError, h.initTooLarge = true, true
	o := testOptions(t, h.url())
	o.SessionsLimit = -1
	c, a := startClient(t, o)
	session := sessionURI(30)
	if _, err := c.Subscribe(context.Background(), session, nil); err != nil {
		t.Fatal(err)
	}
	h.kill()
	evs := a.waitFor("reinitialized", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool {
			return e.State.Phase == Connected && e.State.Recovery == RecoveryReinitialized
		})
	})
	if !hasEvent(evs, func(e ChannelLostEvent) bool { return e.Channel == session }) {
		t.Fatalf("%s not reported lost: %s", session, describeTail(evs, 8))
	}
	if subs := c.Subscriptions(); len(subs) != 1 || subs[0] != ahpwire.RootURI {
		t.Fatalf("subscriptions = %v", subs)
	}
	conns, inits, reconnects, refused := h.counts()
	h.mu.Lock()
	tooLarge := h.tooLarge
	h.mu.Unlock()
	if conns != 2 || inits != 2 || reconnects != 1 || refused != 0 || tooLarge != 1 || countState(evs, Reconnecting) != 1 {
		t.Fatalf("conns %d, initialize %d (+%d too large), reconnect %d, refused %d", conns, inits, tooLarge, reconnects, refused)
	}
}
