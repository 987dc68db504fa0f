//go:build windows

package acp

import (
	"errors"
	"os"
	"syscall"
)

// errSharingViolation is ERROR_SHARING_VIOLATION.
const errSharingViolation = syscall.Errno(32)

// tryLockFile opens path with share mode 0, so no other handle can open it
// while the file is open: the Windows counterpart of an exclusive flock
// (errLockBusy while another process or index holds it). Closing the file
// releases it.
func tryLockFile(path string) (*os.File, error) {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := syscall.CreateFile(p, syscall.GENERIC_READ|syscall.GENERIC_WRITE, 0, nil,
		syscall.OPEN_ALWAYS, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		if errors.Is(err, errSharingViolation) {
			return nil, errLockBusy
		}
		return nil, err
	}
	return os.NewFile(uintptr(h), path), nil
}
