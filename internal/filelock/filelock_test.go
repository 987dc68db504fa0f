package filelock

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestTryLockExcludes: a second lock on a held file is ErrBusy (two opens
// in one process exclude each other), and it can be taken once the first
// is closed; the file is usable for reading and writing.
func TestTryLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "l")
	a, err := TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.File.WriteString("x"); err != nil {
		t.Fatal(err)
	}
	if b, err := TryLock(path); !errors.Is(err, ErrBusy) {
		if b != nil {
			_ = b.Close()
		}
		t.Fatalf("second lock: %v, want ErrBusy", err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := TryLock(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	_ = b.Close()
}

// TestTryLockMissingDir fails with the open's error, not ErrBusy.
func TestTryLockMissingDir(t *testing.T) {
	if _, err := TryLock(filepath.Join(t.TempDir(), "no", "l")); err == nil || errors.Is(err, ErrBusy) {
		t.Fatalf("err = %v", err)
	}
}
