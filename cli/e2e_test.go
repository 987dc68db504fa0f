//go:build !windows

package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/internal/tmuxctl"
)

// TestE2ETmux runs scripts/e2e-tmux.sh: the whole app in a real terminal
// (tmux) against the embedded demo host. It is skipped only when tmux is not
// installed; CI installs it.
//
// On failure it prints the script's output, the last pane the script
// captured, and the app's log file, so that a red CI run can be diagnosed.
func TestE2ETmux(t *testing.T) {
	t.Parallel() // waits on its own tmux server (TMUX_TMPDIR), HOME, state dir and port
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	bin := sharedBinary(t) // sharedbin_test.go: the script runs it, never changes it
	work := t.TempDir()
	// The script's tmux server lives in $work/tmux; make sure it dies even
	// if the script is killed before its EXIT trap runs.
	t.Cleanup(func() { killTmux(work) })

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "../scripts/e2e-tmux.sh")
	cmd.Env = append(tmuxctl.PrivateEnv(os.Environ(), ""), "AHPTUI_BIN="+bin, "E2E_TIMEOUT=40", "E2E_WORKDIR="+work)
	// Own process group, killed as a whole on timeout; WaitDelay bounds the
	// wait for pipes that a stray grandchild might still hold open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out testkit.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		// Every log line of the whole run: no token in clear.
		logb, lerr := os.ReadFile(filepath.Join(work, "state", "ahptui", "ahptui.log"))
		if lerr != nil || len(logb) == 0 {
			t.Fatalf("no app log: %v", lerr)
		}
		if m := regexp.MustCompile(`tkn(=|%3D)[^*&"\s]`).Find(logb); m != nil {
			t.Fatalf("the app log carries a token: %q", m)
		}
		return
	}
	t.Errorf("e2e script failed: %v (ctx: %v)", err, ctx.Err())
	t.Logf("----- script output -----\n%s", out.String())
	if ctx.Err() != nil {
		// Killed before its own fail() could print the screen: capture it now.
		if pane, perr := capturePane(work); perr == nil {
			t.Logf("----- pane at timeout -----\n%s", pane)
		}
	}
	dumpFile(t, "last captured pane", filepath.Join(work, "last-screen.txt"))
	dumpFile(t, "app log", filepath.Join(work, "state", "ahptui", "ahptui.log"))
}

// tmuxIn runs tmux against the script's private server in work/tmux.
func tmuxIn(work string, args ...string) *exec.Cmd {
	c := exec.Command("tmux", args...)
	c.Env = tmuxctl.PrivateEnv(os.Environ(), filepath.Join(work, "tmux"))
	return c
}

func capturePane(work string) (string, error) {
	out, err := tmuxIn(work, "capture-pane", "-p", "-t", "e2e", "-S", "-200").Output()
	return string(out), err //nolint:wrapcheck // diagnostics only
}

func killTmux(work string) { _ = tmuxIn(work, "kill-server").Run() }

func dumpFile(t *testing.T, what, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Logf("----- %s: %v -----", what, err)
		return
	}
	const max = 64 << 10
	if len(b) > max {
		b = append([]byte("…(truncated)…\n"), b[len(b)-max:]...)
	}
	t.Logf("----- %s (%s) -----\n%s", what, path, b)
}
