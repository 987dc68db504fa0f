//go:build !windows

package main

import (
	"fmt"
	"os"
	"syscall"
)

// sessionIDs says the agent's pid, process group and session: "pid P
// pgid G sid S" (a host must start it in a session of its own, away from
// its terminal's job control).
func sessionIDs() string {
	pid := os.Getpid()
	pgid, _ := syscall.Getpgid(pid)
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	if errno != 0 {
		return "getsid: " + errno.Error()
	}
	return fmt.Sprintf("pid %d pgid %d sid %d", pid, pgid, sid)
}

// mkfifo makes a named pipe at p.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o600) }

// newSession starts a child in a session of its own (away from the agent's
// process group, as a daemon would).
func newSession() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
