//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package acp

import (
	"errors"
	"os"
	"syscall"
)

// tryLockFile opens path and takes an exclusive, non-blocking flock on it
// (errLockBusy when another open file description holds it: another
// process, or another index of this one). Closing the file releases it.
func tryLockFile(path string) (*os.File, error) {
	f, err := openLockFile(path)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err == nil {
		return f, nil
	}
	_ = f.Close()
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, errLockBusy
	}
	return nil, err
}
