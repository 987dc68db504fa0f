package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A history file grown huge is neither read whole at start nor when a
// prompt is added (it was read to count its lines: 1 GB killed the UI).
func TestHugeHistoryReadBounded(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("\n{\"text\":\"last one\"}\n"), 256<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	entries, err := readHistory(p)
	if err != nil || len(entries) != 1 || entries[0] != "last one" {
		t.Fatalf("entries %q, %v", entries, err)
	}
	if err := appendHistory(p, "next", append(entries, "next")); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Fatalf("reading and appending allocated %d MiB", grew>>20)
	}
	if entries, err := readHistory(p); err != nil || strings.Join(entries, ",") != "last one,next" {
		t.Fatalf("after the append (a rewrite): %q, %v", entries, err)
	}
}

// A link placed at the history file is not written through.
func TestHistoryLinkNotFollowed(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "h.jsonl")
	if err := os.Symlink(victim, p); err != nil {
		t.Fatal(err)
	}
	if err := appendHistory(p, "x", []string{"x"}); err == nil {
		t.Fatal("appended through a link")
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious\n" {
		t.Fatalf("the victim was written: %q", b)
	}
}
