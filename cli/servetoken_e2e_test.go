package cli

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
)

// TestServeKeepsItsTokenAcrossRestarts: a durable `serve` given no token
// makes one, keeps it in its state directory (mode 0600) and uses it again
// when started again, so that a client attached before the restart gets
// back in with the token it has; --new-token makes another (the old one
// is refused from then on); --ephemeral keeps none; a --state-dir that is
// a file and a kept token others may read are refused, saying so.
func TestServeKeepsItsTokenAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	start := func(extra ...string) (token string) {
		t.Helper()
		args := append([]string{"serve", "--addr", r.addr, "--state-dir", r.state, "--dir", r.proj}, extra...)
		r.cmd = exec.Command(r.bin, args...)
		line := r.startCmd()
		u, err := url.Parse(line)
		must(t, err)
		if token = u.Query().Get("tkn"); token == "" {
			t.Fatalf("no token in the URL %q", line)
		}
		return token
	}
	first := start()
	st, err := os.Stat(filepath.Join(r.state, tokenFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("kept token file: %v %v", st, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: first, StateDir: t.TempDir(),
		Backoff: ahpclient.BackoffPolicy{Initial: 50 * time.Millisecond, Max: 200 * time.Millisecond}})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	waitPhase(ctx, t, c, ahpclient.Connected)

	r.stop(syscall.SIGTERM)
	if again := start(); again != first {
		t.Fatalf("the restarted host has another token")
	}
	waitPhase(ctx, t, c, ahpclient.Reconnecting)
	waitPhase(ctx, t, c, ahpclient.Connected) // back in with the token it had

	r.stop(syscall.SIGTERM)
	renewed := start("--new-token")
	if renewed == first {
		t.Fatal("--new-token kept the token")
	}
	for failed := false; !failed; { // the client with the old token is turned away
		ev, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("the old token was not refused: %v", err)
		}
		if e, ok := ev.(ahpclient.ConnStateEvent); ok {
			if e.State.Phase == ahpclient.Connected {
				t.Fatal("the old token still gets in after --new-token")
			}
			failed = e.State.Phase == ahpclient.Failed
		}
	}
	r.stop(syscall.SIGTERM)
	if again := start(); again != renewed {
		t.Fatal("the token --new-token made was not kept")
	}
	r.stop(syscall.SIGTERM)

	eph := t.TempDir()
	r.state = eph
	if start("--ephemeral") == renewed {
		t.Fatal("an ephemeral host used a kept token")
	}
	r.stop(syscall.SIGTERM)
	if _, err := os.Stat(filepath.Join(eph, tokenFile)); err == nil {
		t.Fatal("an ephemeral host kept its token")
	}

	notDir := filepath.Join(eph, "file")
	must(t, os.WriteFile(notDir, nil, 0o600))
	cmd := exec.Command(r.bin, "serve", "--addr", r.addr, "--state-dir", notDir, "--dir", r.proj)
	cmd.Env = r.env
	if msg, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(msg), "--state-dir "+notDir+" is not a directory") {
		t.Fatalf("--state-dir naming a file: %v\n%s", err, msg)
	}

	must(t, os.WriteFile(filepath.Join(eph, tokenFile), []byte("shared-token\n"), 0o644))
	cmd = exec.Command(r.bin, "serve", "--addr", r.addr, "--state-dir", eph, "--dir", r.proj)
	cmd.Env = r.env
	msg, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(msg), tokenFile) || !strings.Contains(string(msg), "readable by others") ||
		strings.Contains(string(msg), "shared-token") {
		t.Fatalf("a kept token others may read: %v\n%s", err, msg)
	}
}

// waitPhase reads c's events until its connection is in phase p.
func waitPhase(ctx context.Context, t *testing.T, c *ahpclient.Client, p ahpclient.Phase) {
	t.Helper()
	for {
		ev, err := c.Next(ctx)
		if err != nil {
			t.Fatalf("waiting for %v: %v", p, err)
		}
		if e, ok := ev.(ahpclient.ConnStateEvent); ok {
			if e.State.Phase == p {
				return
			}
			if e.State.Phase == ahpclient.Failed {
				t.Fatalf("waiting for %v: the connection failed: %v", p, e.State.Err)
			}
		}
	}
}
