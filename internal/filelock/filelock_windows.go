//go:build windows

package filelock

import (
	"errors"
	"os"
	"syscall"
)

// errSharingViolation is ERROR_SHARING_VIOLATION.
const errSharingViolation = syscall.Errno(32)

// tryLock opens path with share mode 0, so no other handle can open it
// while it is open: the Windows counterpart of an exclusive flock.
func tryLock(path string) (*Lock, error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		if errors.Is(err, errSharingViolation) {
			return nil, ErrBusy
		}
		return nil, err
	}
	return &Lock{File: os.NewFile(uintptr(h), path)}, nil
}
