//go:build !windows

package acp

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// setGroup starts cmd in its own process group, so that killGroup reaches
// every process the agent starts, and (where the system can) has it killed
// when the host dies without killing it: a host ended by SIGKILL or a
// crash left the agent running forever. The group is a session of its
// own (Setsid): in the host's session, the terminal's job control stopped
// the whole group (SIGTTOU, SIGTTIN) when one of its processes touched
// the terminal the TUI owns (`ahptui --agent` in a tmux pane: Claude Code
// runs tmux display-message), and the turn hung.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	dieWithHost(cmd.SysProcAttr)
}

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// guardScript is the sentinel of an agent's process group: it waits on
// the pipe the host holds and kills the group ($1) at the pipe's end
// unless the host said "done" first. The kernel closes the pipe when the
// host dies in any way (SIGKILL too), while the agent's parent-death
// signal reaches only the agent: the processes it started in its group
// (`cmd &` in its shell) would live on.
const guardScript = `read x; [ "$x" = done ] || kill -9 -"$1" 2>/dev/null`

// guardGroup starts the sentinel of process group pgid and returns what
// disarms it (once the bridge has dealt with the group itself). A
// sentinel that cannot start is logged by the caller; the group is then
// guarded only by the parent-death signal of its leader.
func guardGroup(pgid int) (disarm func(), err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("/bin/sh", "-c", guardScript, "ahptui-agent-guard", strconv.Itoa(pgid))
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // not in the group it guards
	err = cmd.Start()
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		return nil, err
	}
	go func() { _ = cmd.Wait() }() // reaped when it ends (disarmed, or the host died)
	var once sync.Once
	return func() {
		once.Do(func() {
			_, _ = w.WriteString("done\n")
			_ = w.Close()
		})
	}, nil
}
