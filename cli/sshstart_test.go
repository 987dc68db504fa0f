//go:build !windows

package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// sessionOf is the session id of pid (from /proc).
func sessionOf(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	sid, _ := strconv.Atoi(f[3]) // state ppid pgrp session
	return sid
}

// waitNewConnection waits for an sshd connection not among old.
func waitNewConnection(t *testing.T, sshd int, old []int) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for time.Now().Before(deadline) {
		for _, pid := range childPIDs(t, sshd) {
			if !slices.Contains(old, pid) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the tunnel did not come back after the drop")
}

// readState reads a serve state file.
func readState(t *testing.T, path string) serveState {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	var st serveState
	must(t, json.Unmarshal(b, &st))
	return st
}

// TestSSHStartedHostOutlivesTheLink: `ahptui ssh sshtest` in a real
// terminal starts a detached ahptui serve there (its own session, its log
// in the remote state directory) and shows the UI connected. When the
// link drops (every connection to the sshd is cut) the host keeps running
// and the UI reconnects to it; when the UI quits, the host still runs, and
// the next `ahptui ssh` attaches to the same host; `--stop` ends it.
func TestSSHStartedHostOutlivesTheLink(t *testing.T) {
	t.Parallel() // its own sshd, port, tmux server and directories
	s := startSSHD(t)
	remote := sharedBinary(t) // sharedbin_test.go
	p := startPane(t, []string{"AHPTUI_SSH=" + s.wrapper},
		fmt.Sprintf(`bash -c '%q ssh sshtest --remote-bin %q; echo EXIT=$?; echo MODES: $(stty -a | tr "\n" " ")'`, remote, remote))
	p.waitFor(`Connected`)
	state := filepath.Join(s.remoteState, "ahptui", serveStateName)
	st := readState(t, state)
	if sid := sessionOf(t, st.PID); sid != st.PID {
		t.Fatalf("the started host is not in a session of its own: sid %d, pid %d", sid, st.PID)
	}
	logb, err := os.ReadFile(filepath.Join(s.remoteState, "ahptui", serveLogName))
	if err != nil || !strings.Contains(string(logb), "ahptui host ready") || strings.Contains(string(logb), st.Token) {
		t.Fatalf("the host's log (%v): want its lines and never its token:\n%s", err, logb)
	}
	kids := childPIDs(t, s.pid)
	if len(kids) < 1 {
		t.Fatalf("want the tunnel's connection, found %d", len(kids))
	}
	for _, pid := range kids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	waitNewConnection(t, s.pid, kids) // the tunnel is back
	p.waitFor(`Connected`)
	if !processAlive(st.PID) {
		t.Fatal("the started host ended with the link")
	}
	p.tmux("send-keys", "-t", "e2e", "C-c")
	checkRestored(t, p.waitFor(`MODES:.*\S`), exitOK)
	if !processAlive(st.PID) || readState(t, state).PID != st.PID {
		t.Fatal("the started host ended when the client quit")
	}
	code, out, errs := s.runBin(t, remote, "", nil, "sessions", "@box")
	if code != exitOK || readState(t, state).PID != st.PID {
		t.Fatalf("reattach: %d %q %q (pid %d, was %d)", code, out, errs, readState(t, state).PID, st.PID)
	}
	code, out, errs = s.runBin(t, remote, "", nil, "ssh", "sshtest", "--stop")
	if code != exitOK || !strings.Contains(out, "stopped the ahptui host on sshtest") {
		t.Fatalf("--stop: %d %q %q", code, out, errs)
	}
	if processAlive(st.PID) {
		t.Fatal("--stop left the host running")
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("--stop left the state file: %v", err)
	}
	if code, out, _ := s.runBin(t, remote, "", nil, "ssh", "sshtest", "--stop"); code != exitOK || !strings.Contains(out, "no ahptui host is running") {
		t.Fatalf("second --stop: %d %q", code, out)
	}
}
