//go:build !windows

package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSSHAddAgent: a running host that lacks the --agent a later attach
// asks for is left running while a session of it waits for the user (the
// message says how to restart it with every agent), and restarted with
// the agent added once it is idle.
func TestSSHAddAgent(t *testing.T) {
	t.Parallel() // its own sshd, port and directories; ahptui runs as a child (sshpar_test.go)
	s := startSSHD(t)
	bin := sharedBinary(t)
	fake := sharedFakeACP(t)
	state := filepath.Join(s.remoteState, "ahptui", serveStateName)
	withAgent := "remote_bin = \"" + bin + "\"\nagents = [\"fake=" + fake + "\"]\n"

	// A demo host with a session waiting for an answer: busy.
	if code, _, errs := s.runBin(t, bin, "remote_bin = \""+bin+"\"\n", nil, "exec", "@box", "/demo input"); code != execNeedsInput {
		t.Fatalf("setup: %d %q", code, errs)
	}
	demo := readState(t, state)
	code, _, errs := s.runBin(t, bin, withAgent, nil, "sessions", "@box")
	if code != exitOK || readState(t, state).PID != demo.PID {
		t.Fatalf("a busy host was restarted: %d %q", code, errs)
	}
	for _, want := range []string{"serves the demo agent, not fake", "1 of its sessions are at work", "left running",
		"`ahptui ssh sshtest --stop`, then `ahptui ssh sshtest --agent fake=" + fake + "`"} {
		if !strings.Contains(errs, want) {
			t.Fatalf("%q not said: %q", want, errs)
		}
	}

	// Idle (stopped and started again, no session at work): the attach
	// restarts it with the agent.
	if code, out, errs := s.runBin(t, bin, "", nil, "ssh", "sshtest", "--stop"); code != exitOK {
		t.Fatalf("--stop: %d %q %q", code, out, errs)
	}
	if code, _, errs := s.runBin(t, bin, "remote_bin = \""+bin+"\"\n", nil, "sessions", "@box"); code != exitOK {
		t.Fatalf("restart demo: %d %q", code, errs)
	}
	demo = readState(t, state)
	code, _, errs = s.runBin(t, bin, withAgent, nil, "sessions", "@box")
	st := readState(t, state)
	if code != exitOK || st.PID == demo.PID || len(st.Agents) != 1 || st.Agents[0] != "fake="+fake ||
		!strings.Contains(errs, "restarted it with --agent fake") {
		t.Fatalf("idle host not restarted with the agent: %d %q %+v", code, errs, st)
	}
}

// TestSSHLeavesAHandRunHost: a host someone runs by hand there (not
// detached by ahptui ssh) is never restarted: asking for another agent
// attaches to it as it is and says so.
func TestSSHLeavesAHandRunHost(t *testing.T) {
	t.Parallel() // its own sshd, port and directories; ahptui runs as a child (sshpar_test.go)
	s := startSSHD(t)
	bin := sharedBinary(t)
	s.serveBin(t, bin)
	state := filepath.Join(s.remoteState, "ahptui", serveStateName)
	before := readState(t, state)
	if before.Detached {
		t.Fatal("a serve run by hand says it is detached")
	}
	code, _, errs := s.runBin(t, bin, "agents = [\"other=/bin/true\"]\n", nil, "sessions", "@box")
	if code != exitOK || readState(t, state).PID != before.PID || !strings.Contains(errs, "not started by ahptui ssh, so it was left running") {
		t.Fatalf("a hand-run host: %d %q", code, errs)
	}
}
