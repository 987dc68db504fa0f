package ahphost

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// hostPort returns host:port of a ws:// URL.
func hostPort(u string) string {
	return strings.SplitN(strings.TrimPrefix(u, "ws://"), "?", 2)[0]
}

// TestConnectionCap: beyond MaxConnections new connections get 503 and
// existing ones are unaffected; a freed slot is reusable.
func TestConnectionCap(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxConnections: 4})
	var ws []*wsClient
	for i := range 4 {
		w := dial(t, u, nil)
		w.initialize("c"+string(rune('0'+i)), nil, nil)
		ws = append(ws, w)
	}
	if st := dialHost(t, u, ""); st != http.StatusServiceUnavailable {
		t.Fatalf("fifth connection: status %d, want 503", st)
	}
	ws[0].close()
	waitUntil(t, "slot freed", func() bool { return h.Connections() == 3 && h.active.Load() == 3 })
	w := dial(t, u, nil)
	w.initialize("again", nil, nil)
	ws[1].call("ping", map[string]any{"channel": "ahp-root://"})
}

// TestSlowHeadersAreCut: a peer that never finishes its upgrade request
// headers is disconnected after HandshakeTimeout.
func TestSlowHeadersAreCut(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, HandshakeTimeout: 300 * time.Millisecond})
	nc, err := net.Dial("tcp", hostPort(u))
	must(t, err)
	defer nc.Close()
	_, err = io.WriteString(nc, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	must(t, err)
	// The host hangs up (EOF or reset); our own deadline is only a guard.
	_ = nc.SetReadDeadline(time.Now().Add(testTimeout))
	if _, err := io.Copy(io.Discard, nc); errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal("the connection with unfinished headers was never cut")
	}
}

// TestRefusedRequestIsNotKeptOpen: a request refused with 401 closes its
// TCP connection at once (no idle keep-alive connections pile up).
func TestRefusedRequestIsNotKeptOpen(t *testing.T) {
	_, u := startHost(t, Options{Token: "tok", Agent: idleAgent{}})
	nc, err := net.Dial("tcp", hostPort(u))
	must(t, err)
	defer nc.Close()
	_, err = io.WriteString(nc, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	must(t, err)
	_ = nc.SetReadDeadline(time.Now().Add(3 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	must(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if _, err := nc.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("connection still open after 401: %v", err)
	}
}

// TestInitializeDeadline: a WebSocket that never initializes is closed
// with 1008 after HandshakeTimeout; an initialized one stays open.
func TestInitializeDeadline(t *testing.T) {
	_, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, HandshakeTimeout: 300 * time.Millisecond})
	good := dial(t, u, nil)
	good.initialize("good", nil, nil)
	idle := dial(t, u, nil)
	if st := idle.closed(); st != websocket.StatusPolicyViolation {
		t.Fatalf("idle connection close status %v, want 1008", st)
	}
	// good's deadline began before idle's, which has passed: good is
	// past its own, and still served.
	good.call("ping", map[string]any{"channel": "ahp-root://"})
}

// rawWS performs a WebSocket upgrade by hand and returns the TCP
// connection, for tests that need to write frames byte by byte.
func rawWS(t *testing.T, u string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", hostPort(u))
	must(t, err)
	t.Cleanup(func() { _ = nc.Close() })
	req := "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	_, err = io.WriteString(nc, req)
	must(t, err)
	_ = nc.SetReadDeadline(time.Now().Add(testTimeout))
	resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
	must(t, err)
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %d", resp.StatusCode)
	}
	_ = nc.SetReadDeadline(time.Time{})
	return nc
}

// frameHeader returns a masked client frame header (mask key 0, so the
// payload is sent as is) for a payload of n ≤ 65535 bytes.
func frameHeader(fin bool, opcode byte, n int) []byte {
	b0 := opcode
	if fin {
		b0 |= 0x80
	}
	if n < 126 {
		return []byte{b0, 0x80 | byte(n), 0, 0, 0, 0}
	}
	return []byte{b0, 0x80 | 126, byte(n >> 8), byte(n), 0, 0, 0, 0}
}

// TestTrickledFragmentsAreCut: a fragmented message trickled one byte at a
// time (one-byte continuation frames, then a frame whose payload trickles)
// is cut off MessageReadTimeout after its first frame.
func TestTrickledFragmentsAreCut(t *testing.T) {
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MessageReadTimeout: 500 * time.Millisecond})
	for _, mode := range []string{"fragments", "payload"} {
		nc := rawWS(t, u)
		waitUntil(t, "connected", func() bool { return h.Connections() == 1 })
		_, err := nc.Write(append(frameHeader(false, 1, 1), '{'))
		must(t, err)
		if mode == "payload" {
			_, err = nc.Write(frameHeader(true, 0, 100))
			must(t, err)
		}
		// Trickle until the host cuts the message (MessageReadTimeout);
		// our deadline is only a guard.
		deadline := time.Now().Add(testTimeout)
		for h.Connections() == 1 {
			if time.Now().After(deadline) {
				t.Fatalf("%s: the trickled message was never cut", mode)
			}
			b := []byte{' '}
			if mode == "fragments" {
				b = append(frameHeader(false, 0, 1), ' ')
			}
			if _, err := nc.Write(b); err != nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		waitUntil(t, "trickling connection closed", func() bool { return h.Connections() == 0 })
	}
}

// TestUnfinishedMessagesShareABudget: unfinished fragmented messages on
// several connections together cannot hold more than MaxPendingReadBytes;
// the connection that would exceed it is closed (1013) and the budget is
// returned when connections end.
func TestUnfinishedMessagesShareABudget(t *testing.T) {
	const budget = 1 << 20
	h, u := startHost(t, Options{NoToken: true, Agent: idleAgent{}, MaxPendingReadBytes: budget})
	chunk := append(frameHeader(false, 1, 60000), []byte(strings.Repeat(" ", 60000))...)
	cont := append(frameHeader(false, 0, 60000), []byte(strings.Repeat(" ", 60000))...)
	var conns []net.Conn
	for range 4 {
		conns = append(conns, rawWS(t, u))
	}
	waitUntil(t, "connected", func() bool { return h.Connections() == 4 })
	for _, nc := range conns {
		_, _ = nc.Write(chunk)
		for range 5 { // ~360 KB each, never finished
			_, _ = nc.Write(cont)
		}
	}
	waitUntil(t, "a connection refused by the budget", func() bool { return h.Connections() < 4 })
	if got := h.pendingRead.Load(); got > budget {
		t.Fatalf("pending read bytes %d above the budget %d", got, budget)
	}
	// Small messages are never refused: others are not locked out.
	fresh := dial(t, u, nil)
	fresh.initialize("fresh", []string{"ahp-root://"}, nil)
	fresh.call("ping", map[string]any{"channel": "ahp-root://"})
	fresh.close()
	for _, nc := range conns {
		_ = nc.Close()
	}
	waitUntil(t, "budget returned", func() bool { return h.Connections() == 0 && h.pendingRead.Load() == 0 })
}
