package ahphost

import (
	"log/slog"
	"strings"
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

// TestSlowConsumerClosedWith4008: a client that stops reading while its
// chat streams is closed once its queue exceeds QueueBytes; the memory is
// released and, when it reads again, it finds close code 4008.
func TestSlowConsumerClosedWith4008(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u := startHost(t, Options{NoToken: true, QueueBytes: 256 << 10,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	slow := dial(t, u, nil)
	slow.initialize("slow", nil, nil)
	chat := slow.createSession("ahp-session:/s1")
	slow.call("subscribe", map[string]any{"channel": chat})
	startTraffic(t, u, chat, "8m")
	waitUntil(t, "slow consumer detected", func() bool { return strings.Contains(logs.String(), "slow consumer") })
	if st := slow.closed(); st != CloseSlowConsumer {
		t.Fatalf("close status %v, want 4008; log:\n%s", st, logs.String())
	}
	waitUntil(t, "slow connection removed", func() bool { return h.Connections() == 1 })
}

// TestNeverReadingClientIsDropped: a client that never reads is dropped
// when a frame write exceeds WriteTimeout, even with a large queue budget.
func TestNeverReadingClientIsDropped(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u := startHost(t, Options{NoToken: true, WriteTimeout: 300 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	slow := dial(t, u, nil)
	slow.initialize("slow", nil, nil)
	chat := slow.createSession("ahp-session:/s1")
	slow.call("subscribe", map[string]any{"channel": chat})
	traffic := startTraffic(t, u, chat, "16m")
	waitUntil(t, "never-reading client dropped", func() bool { return h.Connections() == 1 })
	if !strings.Contains(logs.String(), "frame write timed out") {
		t.Fatalf("no slow-consumer log line:\n%s", logs.String())
	}
	traffic.call("ping", map[string]any{"channel": "ahp-root://"})
}

// TestKeepAliveNotSkippedForever: with no write deadline to speak of, a
// client stuck mid-frame is still pinged after at most two skipped
// intervals and dropped when it does not answer.
func TestKeepAliveNotSkippedForever(t *testing.T) {
	var logs testkit.SyncBuffer
	h, u := startHost(t, Options{NoToken: true, WriteTimeout: time.Hour, KeepAlive: 150 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	slow := dial(t, u, nil)
	slow.initialize("slow", nil, nil)
	chat := slow.createSession("ahp-session:/s1")
	slow.call("subscribe", map[string]any{"channel": chat})
	slow.sendMessage(chat, "t1", "/demo big 16m", 1)
	waitUntil(t, "stuck client dropped", func() bool { return h.Connections() == 0 })
	if !strings.Contains(logs.String(), "did not answer ping") {
		t.Fatalf("not dropped by the keep-alive:\n%s", logs.String())
	}
}
