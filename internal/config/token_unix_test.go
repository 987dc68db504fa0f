//go:build !windows

package config

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTokenCmdLeftoverChildDoesNotHold: a background child keeping the
// output open (`sleep 600 & echo tok`) does not hold the call until it
// ends (issue 24 item 13): the token is read once the shell exits.
func TestTokenCmdLeftoverChildDoesNotHold(t *testing.T) {
	tok, err := (Host{TokenCmd: "sleep 600 & echo tok"}).ResolveToken(context.Background(), os.Getenv)
	if err != nil || tok != "tok" {
		t.Fatalf("got %q, %v; want tok", tok, err)
	}
}

// TestTokenCmdTimeoutKillsTheGroup: at the timeout the whole process group
// is killed, the shell's children included, and the call fails.
func TestTokenCmdTimeoutKillsTheGroup(t *testing.T) {
	old := tokenCmdTimeout
	tokenCmdTimeout = 300 * time.Millisecond
	t.Cleanup(func() { tokenCmdTimeout = old })
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := (Host{TokenCmd: "sleep 600 & echo $! > " + pidFile + "; wait"}).ResolveToken(context.Background(), os.Getenv)
	if err == nil || !strings.Contains(err.Error(), "did not finish") {
		t.Fatalf("err = %v; want a timeout", err)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for !processGone(pid) {
		time.Sleep(20 * time.Millisecond) // the test's own deadline bounds this wait
	}
}

// processGone reports whether pid no longer runs (absent or a zombie).
func processGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(st))
	return len(f) > 2 && f[2] == "Z"
}
