package tmuxctl

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// startSession starts a private tmux server (its own TMUX_TMPDIR) with one
// 100x30 session running cmd.
func startSession(t *testing.T, cmd string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	t.Setenv("TMUX_TMPDIR", t.TempDir())
	if out, err := Command("new-session", "-d", "-s", "p", "-x", "100", "-y", "30", cmd).CombinedOutput(); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	t.Cleanup(func() { _ = Command("kill-server").Run() })
}

// TestTypeAndCapture: keys sent through the control client reach the
// pane, its output is signalled, and capture-pane returns the screen; the
// control client does not resize the session.
func TestTypeAndCapture(t *testing.T) {
	startSession(t, "cat")
	c, err := Attach("p")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	}()
	for _, ch := range "hi there" {
		if _, err := c.Command(fmt.Sprintf("send-keys -t p -H %02x", ch)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-c.Output():
	case <-time.After(10 * time.Second):
		t.Fatal("no output notification after typing into cat")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		screen, err := c.Command("capture-pane -p -t p")
		if err != nil {
			t.Fatal(err)
		}
		if len(screen) > 0 && strings.HasPrefix(screen[0], "hi there") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("typed text not on screen: %q", screen)
		}
		time.Sleep(10 * time.Millisecond)
	}
	size, err := c.Command("display -p -t p '#{pane_width}x#{pane_height}'")
	if err != nil {
		t.Fatal(err)
	}
	if len(size) != 1 || size[0] != "100x30" {
		t.Fatalf("pane size %q, want 100x30", size)
	}
}

// TestCommandError: a command tmux rejects returns its error, and the
// client stays usable.
func TestCommandError(t *testing.T) {
	startSession(t, "cat")
	c, err := Attach("p")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Close() }()
	if _, err := c.Command("no-such-command"); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("err = %v, want tmux's unknown command", err)
	}
	if out, err := c.Command("display -p ok"); err != nil || len(out) != 1 || out[0] != "ok" {
		t.Fatalf("after an error: %q, %v", out, err)
	}
}

// TestAttachMissingSession fails with tmux's reason.
func TestAttachMissingSession(t *testing.T) {
	startSession(t, "cat")
	c, err := Attach("nope")
	if err == nil {
		_ = c.Close()
		t.Fatal("attached to a session that does not exist")
	}
	if !strings.Contains(err.Error(), "can't find session") {
		t.Fatalf("err = %v, want tmux's reason", err)
	}
}

// TestPrivateEnvLeavesTheCallersTmux: the environment of every tmux
// command names only the private server, whatever tmux the test runs in.
func TestPrivateEnvLeavesTheCallersTmux(t *testing.T) {
	env := PrivateEnv([]string{"HOME=/h", "TMUX=/tmp/tmux-0/default,1,0", "TMUX_PANE=%1", "TMUX_TMPDIR=/old"}, "/priv")
	if got := strings.Join(env, " "); got != "HOME=/h TMUX_TMPDIR=/priv" {
		t.Fatalf("env %q", got)
	}
	if got := strings.Join(PrivateEnv([]string{"TMUX=x", "TMUX_TMPDIR=/keep"}, ""), " "); got != "TMUX_TMPDIR=/keep" {
		t.Fatalf("env %q", got)
	}
}
