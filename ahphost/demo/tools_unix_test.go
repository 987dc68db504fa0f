//go:build unix

package demo

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFileRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(dir, "pipe"); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("ReadFile(fifo) = %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("ReadFile blocked on a FIFO")
	}
	if out, err := ListFiles(dir, ""); err != nil || out != "pipe\n" {
		t.Fatalf("ListFiles = %q, %v", out, err)
	}
}
