package ahphost

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/internal/testkit"
)

// startServe runs RunServe with args in the background and returns the
// connect URL, its stderr and a stop function that cancels it and checks
// the exit code.
func startServe(t *testing.T, args ...string) (string, *testkit.SyncBuffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr := &testkit.SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- RunServe(ctx, append([]string{"--dir", t.TempDir(), "--pace", "0"}, args...), pw, stderr)
		_ = pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("reading the URL: %v; stderr:\n%s", err, stderr.String())
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
			}
		case <-time.After(testTimeout):
			t.Error("RunServe did not return after cancel")
		}
	}
	t.Cleanup(stop)
	return strings.TrimSpace(line), stderr, stop
}

// TestRunServeDropAfter: `--drop-after 2` drops every connection abruptly
// right after its second frame.
func TestRunServeDropAfter(t *testing.T) {
	u, stderr, stop := startServe(t, "--without-connection-token", "--drop-after", "2")
	for _, id := range []string{"c1", "c2"} {
		w := dial(t, u, nil)
		w.initialize(id, nil, nil)                               // frame 1
		w.call("ping", map[string]any{"channel": "ahp-root://"}) // frame 2, then dropped
		w.request("ping", map[string]any{"channel": "ahp-root://"})
		// The third ping is not answered: the connection ends, without a
		// close frame, well before the read times out.
		raw, err := w.readMsg(testTimeout)
		var ce websocket.CloseError
		switch {
		case err == nil:
			t.Fatalf("%s: third frame delivered: %s", id, clip(raw))
		case errors.Is(err, context.DeadlineExceeded):
			t.Fatalf("%s: connection still open after two frames", id)
		case errors.As(err, &ce):
			t.Fatalf("%s: closed with a close frame (%v), want an abrupt drop", id, ce)
		}
	}
	stop()
	if n := strings.Count(stderr.String(), "fault: dropping connection after frames"); n != 2 {
		t.Fatalf("%d drop log lines, want 2; stderr:\n%s", n, stderr.String())
	}
}

// TestRunServeWithoutDropAfter is the control: without the flag a third
// frame is answered.
func TestRunServeWithoutDropAfter(t *testing.T) {
	u, _, _ := startServe(t, "--without-connection-token")
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	for i := 0; i < 3; i++ {
		w.call("ping", map[string]any{"channel": "ahp-root://"})
	}
}

// TestSilentFaultFromFlags: the Options parsed from `--silent-after 150ms
// --silent-for 800ms` make the host go silent 150ms after it starts
// listening, for 800ms: a ping sent during the silence is answered only
// after it, on the same connection (no close).
func TestSilentFaultFromFlags(t *testing.T) {
	cfg, err := ParseServeFlags([]string{"--without-connection-token", "--pace", "0",
		"--silent-after", "150ms", "--silent-for", "800ms"})
	must(t, err)
	t0 := time.Now()
	h, u := startHost(t, cfg.Options)
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	waitUntil(t, "silence", func() bool { return h.silentUntil.Load() != 0 })
	sent := time.Now()
	end := time.Unix(0, h.silentUntil.Load())
	if began := end.Add(-800 * time.Millisecond); began.Before(t0.Add(150 * time.Millisecond)) {
		t.Fatalf("silence began %v after the host was started, want ≥ 150ms", began.Sub(t0))
	}
	if !sent.Before(end) {
		t.Fatalf("machine too slow: the ping could only be sent %v after the silence ended", sent.Sub(end))
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"})
	if got := time.Now(); got.Before(end) {
		t.Fatalf("ping answered %v before the silence ended", end.Sub(got))
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"}) // the connection continues
}

// TestSilentFaultOptions: validation, and a pending silence timer does not
// outlive Close.
func TestSilentFaultOptions(t *testing.T) {
	for name, f := range map[string]Faults{
		"after without for": {SilentAfter: time.Second},
		"negative for":      {SilentFor: -time.Second},
		"negative after":    {SilentAfter: -time.Second, SilentFor: time.Second},
		"negative drop":     {DropAfterFrames: -1},
	} {
		if _, err := New(Options{NoToken: true, Dir: t.TempDir(), Faults: f}); err == nil {
			t.Errorf("%s: New accepted %+v", name, f)
		}
	}
	before := testkit.Goroutines()
	h, err := New(Options{NoToken: true, Dir: t.TempDir(), Faults: Faults{SilentAfter: time.Hour, SilentFor: time.Second}})
	must(t, err)
	if _, err := h.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = h.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatal("Close waits for the silence timer")
	}
	if h.silentUntil.Load() != 0 {
		t.Fatal("silence started")
	}
	testkit.CheckNoLeak(t, before)
}

// TestServeHelpDocumentsFaultFlags: `ahptui serve --help` lists every fault
// injection flag with its meaning.
func TestServeHelpDocumentsFaultFlags(t *testing.T) {
	var out, errb strings.Builder
	if code := RunServe(context.Background(), []string{"--help"}, &out, &errb); code != 0 {
		t.Fatalf("--help: code %d, stderr %q", code, errb.String())
	}
	help := out.String()
	for _, want := range []string{
		ServeUsage,
		"-drop-after N", "drop each connection abruptly (no close frame) after it has been sent N frames",
		"-silent-for duration", "go silent once for this long (no frame answered or written, no close",
		"-silent-after duration", "-frame-delay duration",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}
