//go:build !windows

package acp

import (
	"os/exec"
	"syscall"
)

// setGroup starts cmd in its own process group, so that killGroup reaches
// every process the agent starts, and (where the system can) has it killed
// when the host dies without killing it: a host ended by SIGKILL or a
// crash left the agent running forever.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
