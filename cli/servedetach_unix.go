//go:build !windows

package cli

import "syscall"

// detachAttr puts the detached host in a session of its own: no
// controlling terminal, its own process group, so neither the SSH
// session's end nor a signal to the starter's group reaches it.
func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
