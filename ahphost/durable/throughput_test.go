package durable

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkCommitThroughput is the synced write rate of the database
// against the floor of any store that syncs its data before its root:
// each op commits 28 pages of 64 KiB in one transaction (about what the
// last commit of a streamed 3 MB reply holds) and writes the same bytes
// to a plain file, synced, then 4 KiB at its start, synced again (what
// bbolt does: data, then meta). The two alternate, so their ratio comes
// from one run of a machine whose disk and load move by the minute.
//
// It reports bbolt-MB/s, file-MB/s and file/bbolt (how much faster the
// bare writes are). A streaming host keeps up with an agent only while
// the agent produces less than bbolt-MB/s.
func BenchmarkCommitThroughput(b *testing.B) {
	const pages = 28
	dir := b.TempDir()
	d, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	f, err := os.Create(filepath.Join(dir, "plain"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	page := bytes.Repeat([]byte("0123456789abcdef"), 4<<10)
	whole := bytes.Repeat(page, pages)
	var tBolt, tFile time.Duration
	off := int64(4096)
	b.SetBytes(int64(len(whole)))
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		bt := &Batch{Seq: uint64(i + 1)}
		for k := range pages {
			bt.PutResource(fmt.Sprintf("ahptui-part:/chat/t%d/0/%d", i, k), "text/markdown", page)
		}
		if err := d.Commit(bt); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := f.WriteAt(whole, off); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteAt(whole[:4096], 0); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		off += int64(len(whole))
		tBolt, tFile = tBolt+t1.Sub(t0), tFile+time.Since(t1)
	}
	mbps := func(t time.Duration) float64 { return float64(len(whole)) * float64(b.N) / t.Seconds() / 1e6 }
	b.ReportMetric(mbps(tBolt), "bbolt-MB/s")
	b.ReportMetric(mbps(tFile), "file-MB/s")
	b.ReportMetric(float64(tBolt)/float64(tFile), "file/bbolt")
}
