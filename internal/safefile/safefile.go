// Package safefile writes the files of ahptui's state directory so that
// another local user cannot redirect them: no write follows a symbolic
// link placed where a file is expected (O_NOFOLLOW, or a fresh temporary
// file renamed over it), and a state directory owned by another user or
// writable by others is refused. It also reads bounded tails of files
// that may have grown without bound.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// OpenAppend opens path for appending, creating it with perm; a symbolic
// link (or anything but a regular file) at path is refused.
func OpenAppend(path string, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND|oNoFollow|oNonblock, perm)
	if err != nil {
		return nil, linkError(path, err)
	}
	if err := regular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// OpenLockFile opens path for reading and writing, creating it with perm,
// refusing a symbolic link or anything but a regular file.
func OpenLockFile(path string, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|oNoFollow|oNonblock, perm)
	if err != nil {
		return nil, linkError(path, err)
	}
	if err := regular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteFile replaces path with data atomically: a new temporary file in
// the same directory (created exclusively, never through a link) renamed
// over path, which replaces a link at path rather than following it.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadTail reads at most the last n bytes of path, starting after the
// first line break of what it read when it did not read from the start
// (so that it begins with a whole line).
func ReadTail(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err //nolint:wrapcheck // the caller wraps (and tests fs.ErrNotExist)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	off := max(0, st.Size()-n)
	b, err := io.ReadAll(io.NewSectionReader(f, off, n))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if off > 0 {
		if i := indexNewline(b); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	return b, nil
}

func indexNewline(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

// ErrUnsafe refuses a state directory another user could change, or a
// link where a file of it is expected.
var ErrUnsafe = errors.New("the state directory is not safe")

// regular refuses what is not a regular file (a FIFO, a device).
func regular(f *os.File) error {
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name(), err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", f.Name())
	}
	return clearNonblock(f)
}
