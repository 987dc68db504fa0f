//go:build windows

package config

import "os/exec"

// setProcessGroup leaves cmd as it is on Windows: the context's
// cancellation kills the shell, and WaitDelay stops waiting for output a
// leftover child keeps open.
func setProcessGroup(cmd *exec.Cmd) {}
