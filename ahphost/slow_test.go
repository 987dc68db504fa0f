package ahphost

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// startTraffic makes another client run a turn that streams about size
// bytes into chat.
func startTraffic(t *testing.T, u, chat, size string) *wsClient {
	t.Helper()
	w := dial(t, u, nil)
	w.initialize("traffic", nil, nil)
	w.sendMessage(chat, "big-"+size, "/demo big "+size, 1)
	return w
}

// writeGate holds the writes of the connections it guards while shut, as
// a client that stops reading does once the kernel's buffers are full,
// whatever their size.
type writeGate struct {
	mu   sync.Mutex
	shut chan struct{} // non-nil: writes wait until it is closed
}

func (g *writeGate) hold() { g.mu.Lock(); g.shut = make(chan struct{}); g.mu.Unlock() }

func (g *writeGate) release() {
	g.mu.Lock()
	if g.shut != nil {
		close(g.shut)
		g.shut = nil
	}
	g.mu.Unlock()
}

func (g *writeGate) wait() {
	g.mu.Lock()
	ch := g.shut
	g.mu.Unlock()
	if ch != nil {
		<-ch
	}
}

// gatedConn is a server-side connection whose writes pass a writeGate.
type gatedConn struct {
	net.Conn
	g *writeGate
}

func (c gatedConn) Write(p []byte) (int, error) {
	c.g.wait()
	return c.Conn.Write(p) //nolint:wrapcheck // a net.Conn's own error
}

// Close releases a held write (it then fails on the closed connection), as
// closing a socket ends a write blocked on it.
func (c gatedConn) Close() error {
	c.g.release()
	return c.Conn.Close() //nolint:wrapcheck // a net.Conn's own error
}

// gatedListener puts the first connection it accepts behind gate.
type gatedListener struct {
	net.Listener
	gate *writeGate
	n    atomic.Int32
}

func (l *gatedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil && l.n.Add(1) == 1 {
		c = gatedConn{Conn: c, g: l.gate}
	}
	return c, err //nolint:wrapcheck // the listener's own error
}

// startGatedHost is startHost with the first connection's writes behind
// the returned gate (the host's side of a real loopback connection).
func startGatedHost(t *testing.T, opts Options) (*Host, string, *writeGate) {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gate := &writeGate{}
	served := make(chan error, 1)
	go func() { served <- h.Serve(context.Background(), &gatedListener{Listener: ln, gate: gate}) }()
	t.Cleanup(func() { _ = h.Close(); <-served })
	t.Cleanup(gate.release) // before the host closes: a held write would stop it
	return h, h.ConnectURL(ln.Addr().String()), gate
}

// TestSlowConsumerClosedWith4008: a client that stops reading while its
// chat streams is closed once its queue exceeds QueueBytes; the memory is
// released and, when it reads again, it finds close code 4008. The host's
// writes to that client are held (a writeGate on its real loopback
// connection) so that its queue fills however much the kernel would buffer.
func TestSlowConsumerClosedWith4008(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u, gate := startGatedHost(t, Options{NoToken: true, QueueBytes: 256 << 10,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	slow := dial(t, u, nil)
	slow.initialize("slow", nil, nil)
	chat := slow.createSession("ahp-session:/s1")
	slow.call("subscribe", map[string]any{"channel": chat})
	gate.hold() // the slow client stops reading
	startTraffic(t, u, chat, "1m")
	waitUntil(t, "slow consumer detected", func() bool { return strings.Contains(logs.String(), "slow consumer") })
	gate.release() // it reads again: what was written, then the close
	if st := slow.closed(); st != CloseSlowConsumer {
		t.Fatalf("close status %v, want 4008; log:\n%s", st, logs.String())
	}
	waitUntil(t, "slow connection removed", func() bool { return h.Connections() == 1 })
}

// TestNeverReadingClientIsDropped: a client that never reads is dropped
// when a frame write exceeds WriteTimeout, even with a large queue budget.
func TestNeverReadingClientIsDropped(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u, gate := startGatedHost(t, Options{NoToken: true, WriteTimeout: 300 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	slow := dial(t, u, nil)
	slow.initialize("slow", nil, nil)
	chat := slow.createSession("ahp-session:/s1")
	slow.call("subscribe", map[string]any{"channel": chat})
	gate.hold() // it never reads again: its socket is full, whatever the kernel buffers
	traffic := startTraffic(t, u, chat, "1m")
	// Connections is 1 too before the traffic client is counted: wait for
	// the drop's own log line as well.
	waitUntil(t, "never-reading client dropped", func() bool {
		return h.Connections() == 1 && strings.Contains(logs.String(), "frame write timed out")
	})
	traffic.call("ping", map[string]any{"channel": "ahp-root://"})
}

// TestKeepAliveNotSkippedForever: with no write deadline to speak of, a
// client stuck mid-frame is still pinged after at most two skipped
// intervals and dropped when it does not answer.
func TestKeepAliveNotSkippedForever(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u, gate := startGatedHost(t, Options{NoToken: true, WriteTimeout: time.Hour, KeepAlive: 150 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	slow := dial(t, u, nil)
	slow.initialize("slow", nil, nil)
	chat := slow.createSession("ahp-session:/s1")
	slow.call("subscribe", map[string]any{"channel": chat})
	slow.sendMessage(chat, "t1", "/demo big 1m", 1)
	gate.hold() // stuck mid-frame from now on
	waitUntil(t, "stuck client dropped", func() bool { return h.Connections() == 0 })
	if !strings.Contains(logs.String(), "did not answer ping") {
		t.Fatalf("not dropped by the keep-alive:\n%s", logs.String())
	}
}
