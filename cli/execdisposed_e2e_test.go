package cli

import (
	"context"
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/internal/testkit"
)

// TestExecEndsWhenItsSessionIsDisposed: `ahptui exec` following a reply
// whose session another client disposes (ctrl+x in the TUI's session list)
// exits 1 saying so, with what it printed kept. It waited forever: nothing
// more came on the chat, and the host's root/sessionRemoved was not read.
func TestExecEndsWhenItsSessionIsDisposed(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	r.start()
	cmd := exec.Command(r.bin, "exec", r.url(), "--token", "tok-durable", "/demo slow")
	cmd.Env, cmd.Dir = r.env, r.proj
	var streamed, notes testkit.SyncBuffer
	cmd.Stdout, cmd.Stderr = &streamed, &notes
	must(t, cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(streamed.String(), "line 10 of 200") {
		if time.Now().After(deadline) {
			t.Fatalf("the reply does not stream: %q %s", streamed.String(), notes.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	id := regexp.MustCompile(`ahptui: session (\S+)`).FindStringSubmatch(notes.String())[1]

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: "tok-durable", StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	waitPhase(ctx, t, c, ahpclient.Connected)
	must(t, c.DisposeSession(ctx, "ahp-session:/"+id))

	select {
	case err := <-done:
		if code := exitCodeOf(err); code != execFailed || !strings.Contains(notes.String(), "disposed") {
			t.Fatalf("exec exited %d (%v):\n%s", code, err, notes.String())
		}
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("exec still waits after its session was disposed:\n%s", notes.String())
	}
	if !strings.Contains(streamed.String(), "line 10 of 200") {
		t.Fatal("what exec printed is gone")
	}
}

// exitCodeOf is a finished process's exit code (-1 when it did not exit).
func exitCodeOf(err error) int {
	var ee *exec.ExitError
	if err == nil {
		return 0
	}
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// TestExportOrExecOfAnUnknownSession: export and exec --session of a
// session the host does not have (disposed, or another host's) say so and
// where to find the host's sessions, not only "jsonrpc error -32001".
func TestExportOrExecOfAnUnknownSession(t *testing.T) {
	u, _ := startTestHost(t)
	for _, args := range [][]string{{"export", u, "no-such-session"}, {"exec", u, "--session", "no-such-session", "hello"}} {
		code, _, errs := runIn(t, "", args...)
		if code != exitError || !strings.Contains(errs, "the host has no session ahp-session:/no-such-session") || !strings.Contains(errs, "ahptui sessions") {
			t.Fatalf("%s: %d %q", args[0], code, errs)
		}
	}
}

// TestRefusedTokenMessageReadsWhole: the message of a refused token, as
// the terminal shows it (masked), has no hole: the masker hid the word
// after "Bearer " ("an Authorization: Bearer ***") and the ")" after
// "?token=", for a message that holds no token.
func TestRefusedTokenMessageReadsWhole(t *testing.T) {
	u, _ := startTestHost(t)
	code, _, errs := runIn(t, "", "sessions", u, "--token", "not-the-token")
	if code != exitConnect || strings.Contains(errs, "***") || !strings.Contains(errs, "an Authorization header (Bearer)") ||
		!strings.Contains(errs, "(pi-ahp reads the one named token)") || strings.Contains(errs, "not-the-token") {
		t.Fatalf("refused token: %d %q", code, errs)
	}
}
