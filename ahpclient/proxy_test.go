package ahpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

// dropProxy is a transparent WebSocket relay in front of a real host. On
// the first connection it closes both sides abruptly (no close frame) right
// after forwarding its dropAfter-th host→client frame, once; later
// connections pass untouched. It counts the frames of the first connection.
type dropProxy struct {
	target    string // ws://host:port
	dropAfter int64
	conns     atomic.Int64
	frames    atomic.Int64 // host→client frames of the first connection
	fired     atomic.Bool
	srv       *httptest.Server
	wg        sync.WaitGroup

	// closed refuses new connections with 503 while set.
	closed atomic.Bool
	// swallow, when non-empty, makes the proxy drop (not forward) the next
	// client frame containing it and then kill the connection, once.
	mu      sync.Mutex
	swallow string
	kills   []func()

	// stripCaps removes result.capabilities from host→client frames (a
	// host that does not advertise chunking).
	stripCaps atomic.Bool
}

// stripCapabilities returns b without result.capabilities.
func stripCapabilities(b []byte) []byte {
	if !strings.Contains(string(b), `"capabilities"`) {
		return b
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m["result"] == nil {
		return b
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(m["result"], &res) != nil {
		return b
	}
	delete(res, "capabilities")
	m["result"], _ = json.Marshal(res)
	out, err := json.Marshal(m)
	if err != nil {
		return b
	}
	return out
}

// retarget sends new connections to another host.
func (p *dropProxy) retarget(target string) {
	p.mu.Lock()
	p.target = strings.TrimSuffix(target, "/")
	p.mu.Unlock()
}

// gate opens or closes the proxy for new connections.
func (p *dropProxy) gate(open bool) { p.closed.Store(!open) }

// swallowNext arms the one-shot swallow of a client frame containing s.
func (p *dropProxy) swallowNext(s string) {
	p.mu.Lock()
	p.swallow = s
	p.mu.Unlock()
}

// killAll drops every open connection abruptly.
func (p *dropProxy) killAll() {
	p.mu.Lock()
	ks := p.kills
	p.kills = nil
	p.mu.Unlock()
	for _, k := range ks {
		k()
	}
}

func newDropProxy(t testing.TB, target string, dropAfter int64) *dropProxy {
	p := &dropProxy{target: strings.TrimSuffix(target, "/"), dropAfter: dropAfter}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(func() {
		p.srv.CloseClientConnections()
		p.srv.Close()
		p.wg.Wait()
	})
	return p
}

// URL is the ws:// URL clients dial.
func (p *dropProxy) URL() string { return wsURL(p.srv) }

func (p *dropProxy) serve(w http.ResponseWriter, r *http.Request) {
	p.wg.Add(1)
	defer p.wg.Done()
	if p.closed.Load() {
		http.Error(w, "proxy closed", http.StatusServiceUnavailable)
		return
	}
	n := p.conns.Add(1)
	p.mu.Lock()
	target := p.target
	p.mu.Unlock()
	up, _, err := websocket.Dial(r.Context(), target+r.URL.RequestURI(), &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": r.Header.Values("Authorization")}})
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	down, err := websocket.Accept(w, r, nil)
	if err != nil {
		_ = up.CloseNow()
		return
	}
	up.SetReadLimit(-1)
	down.SetReadLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	kill := func() { cancel(); _ = up.CloseNow(); _ = down.CloseNow() }
	p.mu.Lock()
	p.kills = append(p.kills, kill)
	p.mu.Unlock()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // client → host
		defer wg.Done()
		for {
			typ, b, err := down.Read(ctx)
			if err != nil {
				kill()
				return
			}
			p.mu.Lock()
			sw := p.swallow != "" && strings.Contains(string(b), p.swallow)
			if sw {
				p.swallow = ""
			}
			p.mu.Unlock()
			if sw {
				kill()
				return // not forwarded; the link dies with it
			}
			if err := up.Write(ctx, typ, b); err != nil {
				// The host side is closing: leave it to the host → client
				// goroutine to relay the host's close status (e.g. 1009)
				// instead of racing it with an abrupt close.
				return
			}
		}
	}()
	go func() { // host → client
		defer wg.Done()
		defer kill()
		for {
			typ, b, err := up.Read(ctx)
			if err != nil {
				if st := websocket.CloseStatus(err); st != -1 {
					_ = down.Close(st, "relayed") // pass the host's close status on
				}
				return
			}
			if p.stripCaps.Load() {
				b = stripCapabilities(b)
			}
			if err := down.Write(ctx, typ, b); err != nil {
				return
			}
			if n == 1 {
				f := p.frames.Add(1)
				if p.dropAfter > 0 && f == p.dropAfter && p.fired.CompareAndSwap(false, true) {
					return // kill both sides abruptly
				}
			}
		}
	}()
	wg.Wait()
}
