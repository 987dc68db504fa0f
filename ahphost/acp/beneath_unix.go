//go:build !windows

package acp

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// The agent's fs requests open files relative to a handle of the
// session's directory, never by name again after a check: a symbolic link
// swapped in between the check and the open (a race a hostile agent wins
// often) cannot lead out. On Linux openat2 with RESOLVE_BENEATH resolves
// the whole path inside the directory (links inside it still work); where
// it is missing every component is opened with O_NOFOLLOW instead.

// openBeneath opens rel (relative and clean, "/" separated) inside dir
// with flags; it never follows a link out of dir nor blocks on a FIFO
// (O_NONBLOCK: the caller checks what it opened).
func openBeneath(dir, rel string, flags int, perm uint32) (*os.File, error) {
	root, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	defer unix.Close(root)
	fd, err := openat(root, rel, flags|unix.O_NONBLOCK|unix.O_CLOEXEC, perm)
	if err != nil {
		return nil, beneathError(rel, err)
	}
	return os.NewFile(uintptr(fd), rel), nil
}

// walkOpen opens rel under root one component at a time, following no
// link (the fallback of openat2).
func walkOpen(root int, rel string, flags int, perm uint32) (int, error) {
	parts := strings.Split(rel, "/")
	fd, err := unix.Dup(root)
	if err != nil {
		return -1, err
	}
	for _, p := range parts[:len(parts)-1] {
		next, err := unix.Openat(fd, p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		unix.Close(fd)
		if err != nil {
			return -1, err
		}
		fd = next
	}
	defer unix.Close(fd)
	return unix.Openat(fd, parts[len(parts)-1], flags|unix.O_NOFOLLOW, perm)
}

// mkdirBeneath creates the directory rel and its parents inside dir (0755),
// each relative to its parent's handle.
func mkdirBeneath(dir, rel string) error {
	if rel == "." || rel == "" {
		return nil
	}
	parts := strings.Split(rel, "/")
	for i := range parts {
		parent, err := openBeneath(dir, strings.Join(append([]string{"."}, parts[:i]...), "/"), unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			return err
		}
		err = unix.Mkdirat(int(parent.Fd()), parts[i], 0o755)
		parent.Close()
		if err != nil && !errors.Is(err, unix.EEXIST) {
			return fmt.Errorf("%s: %w", strings.Join(parts[:i+1], "/"), err)
		}
	}
	return nil
}

// beneathError names the errors of a path that leads out (a link out of
// the directory, or any link where links are not followed).
func beneathError(rel string, err error) error {
	switch {
	case errors.Is(err, unix.EXDEV), errors.Is(err, unix.ELOOP):
		return fmt.Errorf("%q: %w (through a symbolic link)", rel, errOutside)
	case errors.Is(err, unix.ENXIO):
		return fmt.Errorf("%q: not a regular file", rel)
	}
	return &os.PathError{Op: "open", Path: rel, Err: err}
}

// regular checks that f is a regular file (not a FIFO, device or
// directory) and makes its reads and writes blocking again; it returns
// the file's size.
func regular(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file", f.Name())
	}
	if err := unix.SetNonblock(int(f.Fd()), false); err != nil {
		return 0, err
	}
	return st.Size(), nil
}
