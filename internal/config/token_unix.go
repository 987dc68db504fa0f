//go:build !windows

package config

import (
	"os/exec"
	"syscall"
)

// setProcessGroup runs cmd in a process group of its own and makes the
// context's cancellation kill the whole group, so a child the shell left
// behind dies with it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
