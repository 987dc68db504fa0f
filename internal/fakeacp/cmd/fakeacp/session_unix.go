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
