//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package acp

import (
	"os"
	"sync"
)

// heldLocks are the lock files held by this process: without flock the
// lock only separates the indexes of one process.
var heldLocks = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// lockedFile releases its entry in heldLocks when closed.
type lockedFile struct{ *os.File }

// tryLockFile takes path's lock within this process.
func tryLockFile(path string) (*lockedFile, error) {
	heldLocks.Lock()
	defer heldLocks.Unlock()
	if heldLocks.m[path] {
		return nil, errLockBusy
	}
	f, err := openLockFile(path)
	if err != nil {
		return nil, err
	}
	heldLocks.m[path] = true
	return &lockedFile{f}, nil
}

// Close releases the lock and closes the file.
func (f *lockedFile) Close() error {
	heldLocks.Lock()
	delete(heldLocks.m, f.Name())
	heldLocks.Unlock()
	return f.File.Close()
}
