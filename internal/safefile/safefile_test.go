//go:build !windows

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A link placed where a state file is expected is not written through:
// appends and lock files refuse it, replacements replace the link.
func TestLinksAreNotFollowed(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"log", "lock", "history"} {
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if f, err := OpenAppend(filepath.Join(dir, "log"), 0o600); err == nil || !errors.Is(err, ErrUnsafe) {
		if f != nil {
			f.Close()
		}
		t.Fatalf("append through a link: %v", err)
	}
	if f, err := OpenLockFile(filepath.Join(dir, "lock"), 0o600); err == nil {
		f.Close()
		t.Fatal("a lock file through a link was opened")
	}
	if err := WriteFile(filepath.Join(dir, "history"), []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("the victim was written: %q", b)
	}
	if st, err := os.Lstat(filepath.Join(dir, "history")); err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o600 {
		t.Fatalf("the replaced file: %v %v", st, err)
	}
}

// A FIFO where a log is expected does not block the open.
func TestFIFORefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenLockFile(p, 0o600); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("fifo: %v", err)
	}
}

// A state directory writable by others is refused; the user's own 0700
// one (or none yet) is accepted.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	if err := CheckDir(dir); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(filepath.Join(dir, "absent")); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(dir, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(open); !errors.Is(err, ErrUnsafe) {
		t.Fatalf("a world-writable state dir: %v", err)
	}
	if os.Getuid() == 0 {
		if err := os.Chown(open, 12345, 12345); err == nil {
			_ = os.Chmod(open, 0o700)
			if err := CheckDir(open); err == nil || !strings.Contains(err.Error(), "belongs to uid 12345") {
				t.Fatalf("another user's state dir: %v", err)
			}
		}
	}
}

// ReadTail reads only the tail, from a whole line.
func TestReadTail(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("one\ntwo\nthree\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int64]string{100: "one\ntwo\nthree\n", 8: "three\n", 3: ""} {
		if b, err := ReadTail(p, n); err != nil || string(b) != want {
			t.Fatalf("ReadTail(%d) = %q, %v", n, b, err)
		}
	}
}
