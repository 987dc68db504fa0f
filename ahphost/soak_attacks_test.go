package ahphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// soakStats counts what the soak's attackers observed; violations are
// host behaviours that must never happen.
type soakStats struct {
	mu         sync.Mutex
	violations []string
	attempts   map[string]*atomic.Int64
}

func newSoakStats() *soakStats { return &soakStats{attempts: make(map[string]*atomic.Int64)} }

func (s *soakStats) count(name string) {
	s.mu.Lock()
	c := s.attempts[name]
	if c == nil {
		c = new(atomic.Int64)
		s.attempts[name] = c
	}
	s.mu.Unlock()
	c.Add(1)
}

func (s *soakStats) violate(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.violations) < 20 {
		s.violations = append(s.violations, fmt.Sprintf(format, args...))
	}
}

func (s *soakStats) summary() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var parts []string
	for k, v := range s.attempts {
		parts = append(parts, fmt.Sprintf("%s=%d", k, v.Load()))
	}
	return strings.Join(parts, " ")
}

// adial dials without failing the test (attackers tolerate refusals).
func adial(ctx context.Context, u, host string) (*websocket.Conn, int, error) {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, resp, err := websocket.Dial(dctx, u, &websocket.DialOptions{Host: host})
	status := 0
	if resp != nil {
		status = resp.StatusCode
		if resp.Body != nil {
			_ = resp.Body.Close()
		}
	}
	if err != nil {
		return nil, status, err
	}
	c.SetReadLimit(64 << 20)
	return c, status, nil
}

func asend(ctx context.Context, c *websocket.Conn, s string) error {
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return c.Write(wctx, websocket.MessageText, []byte(s))
}

func areq(id int, method string, params any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(b)
}

// aresponse reads until the response to id; it returns its error code
// (0 = result) or the read error.
func aresponse(ctx context.Context, c *websocket.Conn, id int, timeout time.Duration) (int, error) {
	rctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		_, data, err := c.Read(rctx)
		if err != nil {
			return 0, err
		}
		var m struct {
			ID     *int `json:"id"`
			Method string
			Error  *struct{ Code int }
		}
		if json.Unmarshal(data, &m) == nil && m.ID != nil && *m.ID == id && m.Method == "" {
			if m.Error != nil {
				return m.Error.Code, nil
			}
			return 0, nil
		}
	}
}

func ainit(id string, subs []string) string {
	return areq(1, "initialize", map[string]any{"channel": "ahp-root://", "protocolVersions": []string{"1.0.0"},
		"clientId": id, "initialSubscriptions": subs})
}

// pause sleeps d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// attackAmplify: initialize naming the big chat 40 times, and 100,000
// root subscriptions (items 1).
func attackAmplify(ctx context.Context, u, bigChat string, st *soakStats) {
	huge := make([]string, 100000)
	for i := range huge {
		huge[i] = "ahp-root://"
	}
	for n := 0; ctx.Err() == nil; n++ {
		c, _, err := adial(ctx, u, "")
		if err != nil {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		subs := make([]string, 40)
		for i := range subs {
			subs[i] = bigChat
		}
		if n%2 == 1 {
			subs = huge
		}
		st.count("amplify")
		_ = asend(ctx, c, ainit(fmt.Sprintf("amp-%d", n), subs))
		_, _ = aresponse(ctx, c, 1, 30*time.Second)
		_ = c.CloseNow()
	}
}

// attackSegments: first segments declaring total 65535 on 8 groups before
// initialize (item 2), held open, repeatedly.
func attackSegments(ctx context.Context, u string, st *soakStats) {
	for n := 0; ctx.Err() == nil; n++ {
		c, _, err := adial(ctx, u, "")
		if err != nil {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		st.count("segments")
		for g := range 8 {
			_ = asend(ctx, c, segFrame(fmt.Sprintf(`{"groupId":"g%d-%d","index":0,"total":65535,"data":"%s"}`, n, g, strings.Repeat("QUFB", 150))))
		}
		pause(ctx, 2*time.Second)
		_ = c.CloseNow()
	}
}

// attackRejected: large invalid dispatchActions, then a reconnect from 0
// (item 3), and a failed reconnect followed by initialize (item 17).
func attackRejected(ctx context.Context, u, chat, bigChat string, st *soakStats) {
	big := strings.Repeat("x", 2<<20)
	for n := 0; ctx.Err() == nil; n++ {
		c, _, err := adial(ctx, u, "")
		if err != nil {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		id := fmt.Sprintf("rej-%d", n)
		_ = asend(ctx, c, ainit(id, nil))
		if code, err := aresponse(ctx, c, 1, 30*time.Second); err == nil && code != 0 {
			st.violate("rejected-actions attacker: initialize code %d", code)
		}
		for i := range 4 {
			st.count("rejected")
			_ = asend(ctx, c, fmt.Sprintf(`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":%q,"clientSeq":%d,"action":{"type":"chat/pendingMessageRemoved","kind":"queued","id":%q}}}`, chat, i+1, big))
			_ = asend(ctx, c, fmt.Sprintf(`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":%q,"clientSeq":%d,"action":{"type":"chat/turnStarted","turnId":"x","message":{"text":"no startedAt","origin":{"kind":"user"}}}}}`, chat, i+10))
		}
		_ = c.CloseNow()
		// Reconnect from 0 (no chunking): snapshot or -32050, never a stall.
		c2, _, err := adial(ctx, u, "")
		if err != nil {
			continue
		}
		st.count("reconnect0")
		_ = asend(ctx, c2, areq(2, "reconnect", map[string]any{"channel": "ahp-root://", "clientId": id,
			"lastSeenServerSeq": 0, "subscriptions": []string{bigChat, chat}}))
		code, err := aresponse(ctx, c2, 2, 40*time.Second)
		if err == nil && code != 0 {
			// The TypeScript runtime's fallback: initialize must now work.
			_ = asend(ctx, c2, ainit(id, []string{"ahp-root://"}))
			if code, err := aresponse(ctx, c2, 1, 30*time.Second); err == nil && code != 0 {
				st.violate("initialize after a failed reconnect: code %d", code)
			}
		}
		_ = c2.CloseNow()
	}
}

// attackNeverRead: clients that subscribe to big state and never read
// (item 4); each is redialled once the host drops it.
func attackNeverRead(ctx context.Context, u, chat, bigChat string, st *soakStats) {
	for n := 0; ctx.Err() == nil; n++ {
		c, _, err := adial(ctx, u, "")
		if err != nil {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		st.count("neverRead")
		_ = asend(ctx, c, ainit(fmt.Sprintf("nr-%d", n), []string{"ahp-root://", chat}))
		_ = asend(ctx, c, areq(2, "subscribe", map[string]any{"channel": bigChat}))
		_ = asend(ctx, c, areq(3, "subscribe", map[string]any{"channel": bigChat}))
		for ctx.Err() == nil && asend(ctx, c, areq(9, "ping", map[string]any{"channel": "ahp-root://"})) == nil {
			pause(ctx, time.Second)
		}
		_ = c.CloseNow()
	}
}

// attackLoris: unfinished headers, trickled fragments and large unfinished
// fragmented messages (item 5).
func attackLoris(ctx context.Context, u string, mode int, st *soakStats) {
	addr := hostPort(u)
	for ctx.Err() == nil {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		st.count(fmt.Sprintf("loris%d", mode))
		switch mode {
		case 0: // headers that never end
			_, _ = io.WriteString(nc, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: ")
			for ctx.Err() == nil {
				if _, err := io.WriteString(nc, "a"); err != nil {
					break
				}
				pause(ctx, time.Second)
			}
		default:
			if !rawUpgrade(nc) {
				_ = nc.Close()
				pause(ctx, 200*time.Millisecond)
				continue
			}
			_, _ = nc.Write(append(frameHeader(false, 1, 1), '{'))
			if mode == 1 { // one byte per 500 ms
				for ctx.Err() == nil {
					if _, err := nc.Write(append(frameHeader(false, 0, 1), ' ')); err != nil {
						break
					}
					pause(ctx, 500*time.Millisecond)
				}
			} else { // 12 MiB unfinished, then hold
				chunk := append(frameHeader(false, 0, 60000), make([]byte, 60000)...)
				for i := 0; i < 12<<20/60000 && ctx.Err() == nil; i++ {
					if _, err := nc.Write(chunk); err != nil {
						break
					}
				}
				buf := make([]byte, 512)
				for ctx.Err() == nil {
					_ = nc.SetReadDeadline(time.Now().Add(time.Second))
					if _, err := nc.Read(buf); err != nil && !isTimeout(err) {
						break
					}
				}
			}
		}
		_ = nc.Close()
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return err != nil && errorsAs(err, &ne) && ne.Timeout()
}

// rawUpgrade performs a WebSocket upgrade by hand on nc.
func rawUpgrade(nc net.Conn) bool {
	req := "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := io.WriteString(nc, req); err != nil {
		return false
	}
	_ = nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer func() { _ = nc.SetReadDeadline(time.Time{}) }()
	// Read the 101 response up to the blank line, byte by byte (nothing
	// beyond it may be consumed).
	var head []byte
	b := make([]byte, 1)
	for !strings.HasSuffix(string(head), "\r\n\r\n") {
		if _, err := nc.Read(b); err != nil || len(head) > 4096 {
			return false
		}
		head = append(head, b[0])
	}
	return strings.HasPrefix(string(head), "HTTP/1.1 101")
}

// attackFuzz: arbitrary params for every command, JSON-RPC edge cases and
// the listSessions overflow (items 6, 16); the host must keep answering
// and never close with 1011.
func attackFuzz(ctx context.Context, u string, seed uint64, st *soakStats) {
	rng := rand.New(rand.NewPCG(seed, 1))
	methods := fuzzMethods()
	params := []string{`{"channel":"ahp-root://","cursor":"czox","limit":9223372036854775807}`, `null`, `[]`, `{}`,
		`{"channel":"ahp-chat:/nope","cursor":"dDo5","limit":-1}`, `{"channel":"ahp-session:/x","chat":"ahp-chat:/x"}`,
		`{"channel":"ahp-root://","clientId":"","lastSeenServerSeq":18446744073709551615,"subscriptions":[]}`}
	odd := []string{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"1.0","id":3,"method":"ping"}`,
		`{"id":4,"method":"ping"}`, `{"jsonrpc":"2.0","id":"s","method":"ping"}`, `[`, `{"jsonrpc":"2.0"}`}
	for n := 0; ctx.Err() == nil; n++ {
		c, _, err := adial(ctx, u, "")
		if err != nil {
			pause(ctx, 200*time.Millisecond)
			continue
		}
		_ = asend(ctx, c, ainit(fmt.Sprintf("fz-%d-%d", seed, n), nil))
		_, _ = aresponse(ctx, c, 1, 30*time.Second)
		for i := 0; i < 50 && ctx.Err() == nil; i++ {
			st.count("fuzz")
			m := methods[rng.IntN(len(methods))]
			p := params[rng.IntN(len(params))]
			if rng.IntN(3) == 0 {
				rb := make([]byte, rng.IntN(40))
				for j := range rb {
					rb[j] = byte(rng.IntN(256))
				}
				p = mustMarshal(string(rb))
			}
			if m == "initialize" || m == "reconnect" {
				continue // would end or reset the connection by design
			}
			_ = asend(ctx, c, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, 100+i, m, p))
			_ = asend(ctx, c, odd[rng.IntN(len(odd))])
		}
		_ = asend(ctx, c, areq(7777, "ping", map[string]any{"channel": "ahp-root://"}))
		wait := 30 * time.Second
		if raceEnabled {
			wait *= 3
		}
		if _, err := aresponse(ctx, c, 7777, wait); err != nil && ctx.Err() == nil {
			if websocket.CloseStatus(err) == websocket.StatusInternalError {
				st.violate("fuzz: host closed with 1011 (a handler panicked)")
			} else {
				st.violate("fuzz: ping after fuzzed commands not answered: %v", err)
			}
		}
		_ = c.CloseNow()
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// attackRebind: Host headers of an attacker's domain (item 12) and a
// connection flood beyond the cap; neither may get in.
func attackRebind(ctx context.Context, u string, st *soakStats) {
	port := u[strings.LastIndex(u, ":"):]
	for ctx.Err() == nil {
		st.count("rebind")
		c, status, err := adial(ctx, u, "attacker.example"+port)
		if err == nil {
			_ = c.CloseNow()
			st.violate("rebinding Host accepted")
		} else if status != 0 && status != http.StatusForbidden && status != http.StatusServiceUnavailable {
			st.violate("rebinding Host: status %d", status)
		}
		pause(ctx, 50*time.Millisecond)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
