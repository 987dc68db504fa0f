package acp

import (
	"fmt"
	"os"
	"path/filepath"
)

// openBeneath opens rel inside dir (Windows: by name, after confine's
// check; symbolic links need privileges there).
func openBeneath(dir, rel string, flags int, perm uint32) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(rel)), flags, os.FileMode(perm))
	if err != nil {
		return nil, err
	}
	return f, nil
}

// mkdirBeneath creates the directory rel and its parents inside dir.
func mkdirBeneath(dir, rel string) error {
	return os.MkdirAll(filepath.Join(dir, filepath.FromSlash(rel)), 0o755)
}

// regular checks that f is a regular file and returns its size.
func regular(f *os.File) (int64, error) {
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file", f.Name())
	}
	return st.Size(), nil
}
