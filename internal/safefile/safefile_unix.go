//go:build !windows

package safefile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

const (
	oNoFollow = syscall.O_NOFOLLOW
	oNonblock = syscall.O_NONBLOCK // a FIFO at the path does not block the open
)

// linkError names a refused symbolic link.
func linkError(path string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%s is a symbolic link; refusing to write through it: %w", path, ErrUnsafe)
	}
	return err //nolint:wrapcheck // *PathError already names the path
}

func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	return serr
}

// CheckDir refuses a directory (when it exists) owned by another user or
// writable by its group or others: they could place links in it that the
// program's writes would follow, or replace its files.
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory: %w", dir, ErrUnsafe)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); int(sys.Uid) != uid {
		return fmt.Errorf("%s belongs to uid %d, not to you (uid %d): %w", dir, sys.Uid, uid, ErrUnsafe)
	}
	if st.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (mode %v; chmod go-w it): %w", dir, st.Mode().Perm(), ErrUnsafe)
	}
	return nil
}
