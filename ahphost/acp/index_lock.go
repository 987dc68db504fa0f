package acp

import (
	"errors"
	"fmt"
	"time"

	"github.com/ahptui/ahptui/internal/filelock"
)

// lockIndex takes the advisory lock of the session index, the lock file
// at path (created if missing, never removed), waiting up to wait for
// another holder (another process, or another index of this process on
// the same file) to let go. unlock releases it; the OS releases it when
// the process dies.
func lockIndex(path string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for pause := time.Millisecond; ; pause = min(2*pause, 50*time.Millisecond) {
		l, err := filelock.TryLock(path)
		if err == nil {
			return func() { _ = l.Close() }, nil
		}
		if !errors.Is(err, filelock.ErrBusy) {
			return nil, fmt.Errorf("acp: session index lock: %w", err)
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("acp: session index lock %s: still held after %v", path, wait)
		}
		time.Sleep(pause)
	}
}
