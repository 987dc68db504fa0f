//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package filelock

import "sync"

// held are the files locked by this process: without flock or exclusive
// opens a lock separates only the holders of one process.
var held = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// tryLock locks path within this process.
func tryLock(path string) (*Lock, error) {
	held.Lock()
	defer held.Unlock()
	if held.m[path] {
		return nil, ErrBusy
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	held.m[path] = true
	return &Lock{File: f, release: func() {
		held.Lock()
		delete(held.m, path)
		held.Unlock()
	}}, nil
}
