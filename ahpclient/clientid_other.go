//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package ahpclient

import (
	"os"
	"sync"
)

// heldSlots are the slot files held by this process. On platforms without
// flock or share-exclusive opens, slots are exclusive only among the
// Clients of one process; separate processes may share an id.
var heldSlots = struct {
	sync.Mutex
	m map[string]bool
}{m: make(map[string]bool)}

// lockSlot opens (creating) path unless a Client of this process holds it.
func lockSlot(path string) (f *os.File, ok bool, err error) {
	heldSlots.Lock()
	defer heldSlots.Unlock()
	if heldSlots.m[path] {
		return nil, false, nil
	}
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	heldSlots.m[path] = true
	return f, true, nil
}

// unlockSlot releases the slot taken by lockSlot.
func unlockSlot(f *os.File) error {
	heldSlots.Lock()
	delete(heldSlots.m, f.Name())
	heldSlots.Unlock()
	return f.Close()
}
