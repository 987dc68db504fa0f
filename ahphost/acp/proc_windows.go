//go:build windows

package acp

import "os/exec"

// setGroup does nothing on Windows.
func setGroup(cmd *exec.Cmd) {}

// killGroup kills the process (Windows has no process groups here).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// guardGroup does nothing on Windows (no process groups here).
func guardGroup(int) (func(), error) { return func() {}, nil }
