//go:build windows

package ahpclient

import (
	"errors"
	"os"
	"syscall"
)

// errSharingViolation is ERROR_SHARING_VIOLATION.
const errSharingViolation = syscall.Errno(32)

// lockSlot opens (creating) path with share mode 0, so no other handle can
// open it while f is open: the Windows counterpart of an exclusive flock
// (released by the OS when the process dies). ok is false when the file is
// held by another process or another Client of this process.
func lockSlot(path string) (f *os.File, ok bool, err error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, false, err
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		if errors.Is(err, errSharingViolation) {
			return nil, false, nil
		}
		return nil, false, err
	}
	return os.NewFile(uintptr(h), path), true, nil
}

// unlockSlot releases the lock taken by lockSlot.
func unlockSlot(f *os.File) error { return f.Close() }
