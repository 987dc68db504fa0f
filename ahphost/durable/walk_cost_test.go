package durable

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestOpenWalkCost (run with AHPTUI_WALK_CHANNELS=N, e.g. 300, and
// optionally AHPTUI_WALK_DIR=DIR to keep the file between runs) writes N
// channels of a 1 MiB snapshot and 2000 logged envelopes each, then times
// the read-only walk of every page that Open does before bbolt's own
// free-list scan (walk.go), and the whole Open. Numbers: docs/BENCHMARKS.md.
func TestOpenWalkCost(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("AHPTUI_WALK_CHANNELS"))
	if n <= 0 {
		t.Skip("AHPTUI_WALK_CHANNELS=N runs it")
	}
	dir := os.Getenv("AHPTUI_WALK_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, FileName)
	if _, err := os.Stat(path); err != nil {
		d, err := Open(dir)
		must(t, err)
		seq := uint64(0)
		for c := range n {
			uri := fmt.Sprintf("ahp-chat:/s%04d", c)
			seq++
			b := &Batch{Seq: seq}
			b.Snapshot(uri, seq, []byte(`{}`), bytes.Repeat([]byte("x"), 1<<20))
			for i := range 2000 {
				seq++
				b.Append(uri, seq, fmt.Appendf(nil, `{"serverSeq":%d,"action":{"type":"chat/delta","content":"abcdefghijklmnopqrstuvwxyz0123456789"}}`, seq))
				if i%200 == 199 {
					b.Seq = seq
					must(t, d.Commit(b))
					b = &Batch{Seq: seq}
				}
			}
		}
		must(t, d.Close())
	}
	st, err := os.Stat(path)
	must(t, err)
	for range 3 {
		t0 := time.Now()
		must(t, walk(path))
		t1 := time.Now()
		d, err := Open(dir)
		must(t, err)
		t2 := time.Now()
		must(t, d.Close())
		t.Logf("%d MB file: walk %v, Open (walk, then bbolt's scan) %v", st.Size()>>20, t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond))
	}
}
