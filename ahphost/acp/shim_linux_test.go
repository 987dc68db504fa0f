package acp

import (
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// Under the shim an agent behaves as started directly (answers, crash
// reports with its exit status and last words, a restart), and what it
// leaves in a session of its own when it exits is stopped by the shim
// (it lived on under the host, or init, before issue 32).
func TestShimAgentLifecycle(t *testing.T) {
	e := newEnv(t, opts{shim: true})
	_, chat := e.newSession(e.c, "shim")
	if turn := e.run(e.c, chat, "t1", "text"); markdown(turn) != "Hello from the fake agent." {
		t.Fatalf("answer %q %q", markdown(turn), errText(turn))
	}
	if !strings.Contains(e.logs.String(), "shim=true") {
		t.Fatalf("the agent was not started under the shim:\n%s", e.logs.String())
	}
	turn := e.run(e.c, chat, "t2", "daemon") // a setsid child holding stderr, then exit
	pid, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(markdown(turn)), "child pid "))
	if err != nil {
		t.Fatalf("answer %q %q", markdown(turn), errText(turn))
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	e.eventually("the agent's setsid child to be stopped", func() bool { return !alive(pid) })
	e.eventually("the shim to say so", func() bool {
		return strings.Contains(e.logs.String(), "stopped the processes the agent left behind: 1")
	})
	_, chat2 := e.newSession(e.c, "crash")
	turn = e.run(e.c, chat2, "t3", "crash")
	if msg := errText(turn); turn.State != ahpwire.TurnError || !strings.Contains(msg, "exit status 3") || !strings.Contains(msg, "fake crash line 1") {
		t.Fatalf("crash: state %q, error %q", turn.State, msg)
	}
	if turn := e.run(e.c, chat2, "t4", "text"); !strings.HasSuffix(markdown(turn), "Hello from the fake agent.") {
		t.Fatalf("after the crash: %q %q", markdown(turn), errText(turn))
	}
}

// Closing the host has the shim kill the agent and its children at once;
// the agent's end is seen as a kill, as when it was started directly.
func TestShimCloseKillsTheTree(t *testing.T) {
	e := newEnv(t, opts{shim: true})
	_, chat := e.newSession(e.c, "close")
	turn := e.run(e.c, chat, "t1", "children")
	pid, err := strconv.Atoi(strings.TrimPrefix(markdown(turn), "child pid "))
	if err != nil {
		t.Fatalf("answer %q", markdown(turn))
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	e.b.mu.Lock()
	shimPid := e.b.proc.cmd.Process.Pid
	e.b.mu.Unlock()
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Fatalf("the agent's child %d outlived Close", pid)
	}
	if syscall.Kill(shimPid, 0) == nil {
		t.Fatalf("the shim %d still exists (not reaped)", shimPid)
	}
	if !strings.Contains(e.logs.String(), `err="signal: killed"`) {
		t.Fatalf("the agent's end is not reported as a kill:\n%s", e.logs.String())
	}
}

// An agent the shim cannot start fails the turn with why, as a direct
// start does.
func TestShimStartFailure(t *testing.T) {
	e := newEnv(t, opts{shim: true, command: "/nonexistent/agent"})
	_, chat := e.newSession(e.c, "missing")
	if msg := errText(e.run(e.c, chat, "t1", "text")); !strings.Contains(msg, "cannot start the agent") || !strings.Contains(msg, "no such file") {
		t.Fatalf("missing command: %q", msg)
	}
}

// A terminal's command that leaves a daemon behind (`setsid cmd &`) does
// not leave it running: its shim stops it when the command exits.
func TestShimTerminalStopsItsDaemon(t *testing.T) {
	e := newEnv(t, opts{shim: true})
	_, chat := e.newSession(e.c, "termdaemon")
	turn := e.run(e.c, chat, "t1", "termdaemon")
	md := markdown(turn)
	i := strings.Index(md, "daemon ")
	if !strings.HasPrefix(md, "exit 0") || i < 0 {
		t.Fatalf("answer %q %q", md, errText(turn))
	}
	pid, err := strconv.Atoi(strings.TrimRight(strings.Fields(md[i+len("daemon "):])[0], `"\`))
	if err != nil {
		t.Fatalf("answer %q: %v", md, err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	e.eventually("the terminal's daemon to be stopped", func() bool { return !alive(pid) })
}

// An agent killed by a signal is reported killed by it under the shim
// too, whatever the signal (the shim dies by the same one).
func TestShimKeepsTheAgentsSignal(t *testing.T) {
	for _, shim := range []bool{false, true} {
		e := newEnv(t, opts{shim: shim, command: "sh", args: []string{"-c", "kill -SEGV $$"}})
		_, chat := e.newSession(e.c, "segv")
		if msg := errText(e.run(e.c, chat, "t1", "text")); !strings.Contains(msg, "signal: segmentation fault") {
			t.Fatalf("shim %v: %q", shim, msg)
		}
	}
}
