package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServePrintsURLBeforeAnyLogLine: with stdout and stderr on one
// terminal, the first line is the URL even though the host logs while it
// starts (issue 14).
func TestServePrintsURLBeforeAnyLogLine(t *testing.T) {
	term := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- serveMain(ctx, []string{"--dir", t.TempDir(), "--state-dir", t.TempDir(), "--log-level", "debug", "--token", "tok-ORDER-1"}, term, term)
	}()
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(term.String(), "ahptui host ready") {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start:\n%s", term.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit code %d", code)
	}
	lines := strings.Split(term.String(), "\n")
	if !strings.HasPrefix(lines[0], "ws://127.0.0.1:") {
		t.Fatalf("first line %q is not the URL:\n%s", lines[0], term.String())
	}
	if !strings.Contains(term.String(), "listening") {
		t.Fatalf("the start-up log line was lost:\n%s", term.String())
	}
	if strings.Count(term.String(), "tok-ORDER-1") != 1 {
		t.Fatalf("the token appears outside the URL line:\n%s", term.String())
	}
}

// TestGatedWriter: writes are held until open, then written in order;
// beyond the limit they are dropped and counted.
func TestGatedWriter(t *testing.T) {
	var out bytes.Buffer
	g := newGatedWriter(&out, 10)
	_, _ = g.Write([]byte("12345"))
	_, _ = g.Write([]byte("67890"))
	_, _ = g.Write([]byte("x"))
	if out.Len() != 0 {
		t.Fatalf("written before open: %q", out.String())
	}
	g.open()
	g.open()
	_, _ = g.Write([]byte("after"))
	if got := out.String(); got != "1234567890ahptui: 1 early log lines dropped\nafter" {
		t.Fatalf("got %q", got)
	}
}

// TestServeStateFile: while serve runs, its state file holds the URL and
// the token with mode 0600; it is removed on exit. --exit-with-stdin stops
// serve when its standard input closes.
func TestServeStateFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	pr, pw := io.Pipe()
	out := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- serveMainIn(context.Background(), []string{"--dir", t.TempDir(), "--exit-with-stdin"},
			stdio{in: pr, out: out, err: &syncBuffer{}})
	}()
	path := filepath.Join(dir, "ahptui", serveStateName)
	deadline := time.Now().Add(testTimeout)
	var st serveState
	for {
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &st) == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no state file")
		}
		time.Sleep(10 * time.Millisecond)
	}
	fi, err := os.Stat(path)
	must(t, err)
	if fi.Mode().Perm() != 0o600 || st.PID != os.Getpid() || st.Token == "" ||
		strings.TrimSpace(strings.SplitN(out.String(), "\n", 2)[0]) != st.URL || !strings.Contains(st.URL, st.Addr) {
		t.Fatalf("state %+v mode %v; stdout %q", st, fi.Mode().Perm(), out.String())
	}
	_ = pw.Close() // stdin EOF: serve stops
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(testTimeout):
		t.Fatal("serve ignored the end of its stdin")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("state file left behind: %v", err)
	}
}
