//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package filelock

import (
	"errors"
	"syscall"
)

// tryLock takes an exclusive, non-blocking flock: each open file
// description holds its own, so two opens in one process exclude each
// other too.
func tryLock(path string) (*Lock, error) {
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return &Lock{File: f}, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		_ = f.Close()
		return nil, ErrBusy
	}
	return nil, errors.Join(err, f.Close())
}
