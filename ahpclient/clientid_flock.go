//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package ahpclient

import (
	"errors"
	"os"
	"syscall"
)

// lockSlot opens (creating) path and takes an exclusive, non-blocking
// flock on it. ok is false when another open file description holds the
// lock: another process, or another Client of this process (each opens its
// own descriptor, so flock separates them too). The lock lives as long as f
// is open; the OS drops it when the process dies.
func lockSlot(path string) (f *os.File, ok bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return f, true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return nil, false, f.Close() // held by another process: try the next slot
	}
	return nil, false, errors.Join(err, f.Close())
}

// unlockSlot releases the lock taken by lockSlot.
func unlockSlot(f *os.File) error { return f.Close() }
