package acp

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// lockIndex takes the advisory lock of the session index, the lock file
// at path (created if missing, never removed), waiting up to wait for
// another holder (another process, or another index of this process on
// the same file) to let go. unlock releases it; the OS releases it when
// the process dies.
func lockIndex(path string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		f, err := tryLockFile(path) // index_lock_*.go
		if err == nil {
			return func() { _ = f.Close() }, nil
		}
		if !errors.Is(err, errLockBusy) {
			return nil, fmt.Errorf("acp: session index lock: %w", err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("acp: session index lock %s: still held after %v", path, wait)
		}
		time.Sleep(pause)
	}
}

// errLockBusy is tryLockFile's answer when another holder has the lock.
var errLockBusy = errors.New("lock held elsewhere")

// openLockFile opens (creating) the lock file.
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}
