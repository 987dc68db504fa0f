package demo

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestCompleteFilesCachedAndOffsetsInUTF16(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "alpha.go"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 23, 20, 0, 0, 0, time.UTC)
	a := New(Options{Dir: dir, Now: func() time.Time { return now }})
	items := a.Complete("😀 @al", 5) // 😀 is two UTF-16 units
	if len(items) != 1 || items[0].InsertText != "@alpha.go" || *items[0].RangeStart != 3 || *items[0].RangeEnd != 5 {
		t.Fatalf("items %+v", items)
	}
	if err := os.WriteFile(filepath.Join(dir, "alpine.go"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := a.Complete("@al", 3); len(got) != 1 {
		t.Fatalf("the index was walked again within its TTL: %d items", len(got))
	}
	now = now.Add(fileIndexTTL + time.Second)
	if got := a.Complete("@al", 3); len(got) != 2 {
		t.Fatalf("a stale index was kept: %d items", len(got))
	}
	if got := a.Complete("@al", 99); got != nil {
		t.Fatalf("offset beyond the text: %+v", got)
	}
	if got := a.Complete("/demo su", 8); len(got) != 1 || got[0].InsertText != "/demo subagent" {
		t.Fatalf("commands %+v", got)
	}
}
