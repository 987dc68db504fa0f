//go:build !linux && !windows

package acp

import "syscall"

// dieWithHost: this system has no parent-death signal; the host kills the
// agent's group when it ends normally (killGroup).
func dieWithHost(*syscall.SysProcAttr) {}
