//go:build windows

package cli

import "syscall"

// detachAttr starts the detached host in a new process group.
func detachAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
