package main

import (
	"errors"
	"syscall"
)

// sessionIDs: Windows has no sessions of the kind (see session_unix.go).
func sessionIDs() string { return "no sessions on windows" }

// mkfifo: Windows has no named pipes in the file system.
func mkfifo(string) error { return errors.New("no fifos on windows") }

// newSession: Windows has no sessions of the kind; the child starts as
// any other.
func newSession() *syscall.SysProcAttr { return nil }
