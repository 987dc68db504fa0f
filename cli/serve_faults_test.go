package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ahptui/ahptui/internal/testkit"
)

// startServe runs serveMain with args in the background and returns the
// connect URL, its stderr and a stop function that cancels it and checks
// the exit code.
func startServe(t *testing.T, args ...string) (string, *testkit.SyncBuffer, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	stderr := &testkit.SyncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- serveMain(ctx, append([]string{"--dir", t.TempDir(), "--state-dir", t.TempDir(), "--pace", "0"}, args...), pw, stderr)
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
			t.Error("serve did not return after cancel")
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

// TestServeHelpDocumentsFaultFlags: `ahptui serve --help` lists every fault
// injection flag with its meaning.
func TestServeHelpDocumentsFaultFlags(t *testing.T) {
	var out, errb strings.Builder
	if code := serveMain(context.Background(), []string{"--help"}, &out, &errb); code != 0 {
		t.Fatalf("--help: code %d, stderr %q", code, errb.String())
	}
	help := out.String()
	for _, want := range []string{
		serveUsage,
		"-drop-after N", "drop each connection abruptly (no close frame) after it has been sent N frames",
		"-silent-for duration", "go silent once for this long (no frame answered or written, no close",
		"-silent-after duration", "-frame-delay duration",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}

// TestServeAllowHost: `serve --without-connection-token --allow-host`
// accepts that Host name and still refuses others (DNS-rebinding guard),
// and logs the refusal.
func TestServeAllowHost(t *testing.T) {
	u, stderr, _ := startServe(t, "--without-connection-token", "--allow-host", "devbox.lan")
	port := u[strings.LastIndex(u, ":"):]
	dialHost := func(host string) int { return testkit.DialWithHost(t, u, host, testTimeout) }
	if got := dialHost("devbox.lan" + port); got != 0 {
		t.Fatalf("allowed host refused: %d", got)
	}
	if got := dialHost("evil.example" + port); got != http.StatusForbidden {
		t.Fatalf("evil host: %d, want 403", got)
	}
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(stderr.String(), "Host header not allowed") {
		if time.Now().After(deadline) {
			t.Fatalf("no WARN line:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
