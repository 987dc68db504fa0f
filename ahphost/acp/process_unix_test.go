//go:build !windows

package acp

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

// Closing the host kills the agent's whole process group: a child the
// agent started is gone too, and the agent itself is reaped.
func TestProcessGroupKilledOnClose(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "group")
	turn := e.run(e.c, chat, "t1", "children")
	pid, err := strconv.Atoi(strings.TrimPrefix(markdown(turn), "child pid "))
	if err != nil {
		t.Fatalf("answer %q", markdown(turn))
	}
	e.b.mu.Lock()
	agentPid := e.b.proc.cmd.Process.Pid
	e.b.mu.Unlock()
	if !alive(pid) || !alive(agentPid) {
		t.Fatal("the agent or its child is not running")
	}
	if err := e.h.Close(); err != nil {
		t.Fatal(err)
	}
	e.eventually("the child to die", func() bool { return !alive(pid) })
	if syscall.Kill(agentPid, 0) == nil {
		t.Fatalf("agent %d still exists (not reaped)", agentPid)
	}
}

// The agent runs in a session of its own (or its shim's),
// away from the terminal the host may run in: under `ahptui --agent` the
// TUI owns the terminal, and an agent's process that touched it (Claude
// Code runs `tmux display-message` in a tmux pane) was stopped by
// SIGTTOU/SIGTTIN with its whole group, the turn hanging for good.
func TestAgentHasASessionOfItsOwn(t *testing.T) {
	for _, shim := range []bool{false, true} {
		e := newEnv(t, opts{shim: shim})
		_, chat := e.newSession(e.c, "session")
		var pid, pgid, sid int
		md := markdown(e.run(e.c, chat, "t1", "session"))
		if _, err := fmt.Sscanf(md, "pid %d pgid %d sid %d", &pid, &pgid, &sid); err != nil {
			t.Fatalf("answer %q: %v", md, err)
		}
		// Its own group, in a session that is not the host's (the agent's
		// own, or its shim's).
		mine, _, _ := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
		if pgid != pid || sid == int(mine) || (!shim && sid != pid) {
			t.Fatalf("shim %v: the agent (pid %d) is in group %d of session %d (the host's: %d), want a session of its own",
				shim, pid, pgid, sid, mine)
		}
	}
}
