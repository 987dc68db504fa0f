//go:build !windows

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childPIDs lists the processes whose parent is ppid (from /proc).
func childPIDs(t *testing.T, ppid int) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(ppid) {
			out = append(out, pid)
		}
	}
	return out
}

// TestSSHStartLinkDropEndsWithExit3: `ahptui ssh HOST --start` in a real
// terminal against the private sshd starts ahptui serve there and shows
// the UI connected; when the link drops (every connection to the sshd is
// cut) the started host ends with it — its state file goes — and the UI
// stops at once with exit 3 and a message saying the host and its sessions
// ended and how to start a new one, instead of retrying forever. The serve
// shuts down cleanly (it used to die of SIGPIPE logging its shutdown to the
// gone stderr, leaving its state file and its agents behind).
func TestSSHStartLinkDropEndsWithExit3(t *testing.T) {
	t.Parallel() // its own sshd, port, tmux server and directories
	s := startSSHD(t)
	remote := sharedBinary(t) // sharedbin_test.go
	p := startPane(t, []string{"AHPTUI_SSH=" + s.wrapper},
		fmt.Sprintf(`bash -c '%q ssh sshtest --start --remote-bin %q; echo EXIT=$?; echo MODES: $(stty -a | tr "\n" " ")'`, remote, remote))
	p.waitFor(`Connected`)
	state := filepath.Join(s.remoteState, "ahptui", serveStateName)
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("the started serve wrote no state file: %v", err)
	}
	// The drop: end every SSH connection (the sshd's per-connection
	// children); the listener stays, so the tunnel could come back, but the
	// host it led to is gone.
	kids := childPIDs(t, s.pid)
	if len(kids) < 2 {
		t.Fatalf("want the serve's and the tunnel's connections, found %d", len(kids))
	}
	for _, pid := range kids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	screen := p.waitFor(`MODES:.*\S`)
	checkRestored(t, screen, exitConnect)
	flat := strings.Join(strings.Fields(screen), " ")
	for _, want := range []string{"the host that --start started there ended with it", "its sessions are gone",
		"ahptui ssh sshtest --start"} {
		if !strings.Contains(flat, want) {
			t.Fatalf("%q not on screen:\n%s", want, screen)
		}
	}
	deadline := time.Now().Add(testTimeout)
	for {
		if _, err := os.Stat(state); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the started serve did not shut down cleanly (its state file is still there) after the link dropped")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
