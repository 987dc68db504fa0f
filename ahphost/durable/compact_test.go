package durable

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// fillDisposable commits a kept chat and page, and n chats of about 1 MB
// each whose text holds secret, and deletes those n: their pages are free
// when the database is next opened.
func fillDisposable(t *testing.T, dir string, n int, secret string) (kept Stored) {
	t.Helper()
	d, err := Open(dir)
	must(t, err)
	seq := uint64(0)
	b := &Batch{}
	for i := range 20 {
		seq++
		b.Append("ahp-chat:/kept", seq, []byte(fmt.Sprintf(`{"n":%d,"text":"kept text %d"}`, i, i)))
	}
	b.PutResource("ahptui-part:/kept/t1/0/0", "text/markdown", bytes.Repeat([]byte("kept page "), 7000))
	b.Seq = seq
	must(t, d.Commit(b))
	line := bytes.Repeat([]byte(secret+" "), 64<<10/(len(secret)+1))
	for c := range n {
		b := &Batch{}
		for k := range 16 {
			seq++
			b.Append(fmt.Sprintf("ahp-chat:/gone%d", c), seq, fmt.Appendf(nil, `{"k":%d,"text":%q}`, k, line))
		}
		b.PutResource(fmt.Sprintf("ahptui-part:/gone%d/t1/0/0", c), "text/markdown", line)
		b.Seq = seq
		must(t, d.Commit(b))
	}
	b = &Batch{Seq: seq}
	for c := range n {
		b.Delete(fmt.Sprintf("ahp-chat:/gone%d", c))
		b.DeleteResources(fmt.Sprintf("ahptui-part:/gone%d/", c))
	}
	must(t, d.Commit(b))
	kept, err = d.Load()
	must(t, err)
	must(t, d.Close())
	return kept
}

// TestCompactReclaimsFreedPages: a file most of whose pages were freed
// (deleted chats and pages) is compacted at the next Open: it shrinks, the
// deleted text is no longer in its bytes, what was kept reads back the
// same, and the database takes commits as before.
func TestCompactReclaimsFreedPages(t *testing.T) {
	dir := t.TempDir()
	const secret = "disposed-session-text-7f3a"
	kept := fillDisposable(t, dir, 8, secret)
	path := filepath.Join(dir, FileName)
	raw, err := os.ReadFile(path)
	must(t, err)
	if !bytes.Contains(raw, []byte(secret)) {
		t.Fatal("the freed pages do not hold the deleted text: the test shows nothing")
	}
	before := int64(len(raw))

	d, err := Open(dir)
	must(t, err)
	defer d.Close()
	c := d.Compacted()
	if d.CompactError() != nil || c.Before != before || c.After >= before/3 {
		t.Fatalf("compaction %+v (err %v), file was %d bytes", c, d.CompactError(), before)
	}
	raw, err = os.ReadFile(path)
	must(t, err)
	if int64(len(raw)) != c.After || bytes.Contains(raw, []byte(secret)) {
		t.Fatalf("after compaction: %d bytes, deleted text present: %v", len(raw), bytes.Contains(raw, []byte(secret)))
	}
	if _, err := os.Stat(path + compactSuffix); !os.IsNotExist(err) {
		t.Fatalf("the copy is left beside the database: %v", err)
	}
	got, err := d.Load()
	must(t, err)
	if !reflect.DeepEqual(got, kept) {
		t.Fatalf("kept state differs after compaction:\n%+v\n%+v", got, kept)
	}
	if _, data, ok, err := d.Resource("ahptui-part:/kept/t1/0/0"); err != nil || !ok || !bytes.Equal(data, bytes.Repeat([]byte("kept page "), 7000)) {
		t.Fatalf("kept page: %v %v %d bytes", ok, err, len(data))
	}
	b := &Batch{Seq: got.Seq + 1}
	b.Append("ahp-chat:/kept", got.Seq+1, []byte(`{"n":"after"}`))
	must(t, d.Commit(b))
	if d.Seq() != got.Seq+1 {
		t.Fatalf("seq %d after a commit, want %d", d.Seq(), got.Seq+1)
	}
}

// TestCompactNotWhenLittleFree: a file with few free pages is opened as
// it is (a normal restart costs no copy).
func TestCompactNotWhenLittleFree(t *testing.T) {
	dir := t.TempDir()
	fillDisposable(t, dir, 0, "none")
	d, err := Open(dir)
	must(t, err)
	defer d.Close()
	if c := d.Compacted(); c != (Compaction{}) || d.CompactError() != nil {
		t.Fatalf("compacted %+v (err %v) with nothing freed", c, d.CompactError())
	}
}

// TestCompactFailureKeepsFile: when the copy cannot be made (here its
// path is taken by a directory that cannot be removed; a full disk is
// the same), Open says why and serves the old file, unchanged; a stale
// copy an interrupted compaction left is removed at the next Open.
func TestCompactFailureKeepsFile(t *testing.T) {
	dir := t.TempDir()
	kept := fillDisposable(t, dir, 8, "secret")
	path := filepath.Join(dir, FileName)
	orig, err := os.ReadFile(path)
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(path+compactSuffix, "busy"), 0o700))

	d, err := Open(dir)
	must(t, err)
	if d.CompactError() == nil || d.Compacted() != (Compaction{}) {
		t.Fatalf("compaction into a directory: err %v, %+v", d.CompactError(), d.Compacted())
	}
	got, err := d.Load()
	must(t, err)
	if !reflect.DeepEqual(got, kept) {
		t.Fatal("state differs after a failed compaction")
	}
	must(t, d.Close())
	if now, _ := os.ReadFile(path); len(now) != len(orig) {
		t.Fatalf("the file changed size: %d → %d", len(orig), len(now))
	}

	// An interrupted compaction's copy (a file) goes at the next Open.
	must(t, os.RemoveAll(path+compactSuffix))
	must(t, os.WriteFile(path+compactSuffix, []byte("half a copy"), 0o600))
	compactMinFree = 1 << 40 // (no compaction this time: only the removal)
	t.Cleanup(func() { compactMinFree = 1 << 20 })
	d, err = Open(dir)
	must(t, err)
	defer d.Close()
	if _, err := os.Stat(path + compactSuffix); !os.IsNotExist(err) {
		t.Fatalf("the stale copy is still there: %v", err)
	}
}

// BenchmarkCompact is Open's compaction of a file half of which was freed:
// 40 chats of 48 pages of 64 KiB (text-like bytes), every other one
// deleted. It reports the file's size before and after (MB) and the rate
// of the copy over the kept data (kept-MB/s); the file is made anew for
// each op, outside the timer.
func BenchmarkCompact(b *testing.B) {
	page := make([]byte, 64<<10)
	for i := range page {
		page[i] = "abcdefghij klmnopqrstuvwxyz\n"[(i*7+i/13)%28]
	}
	var took time.Duration
	var c Compaction
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		d, err := Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		seq := uint64(0)
		for ch := range 40 {
			bt := &Batch{}
			for k := range 48 {
				seq++
				bt.PutResource(fmt.Sprintf("ahptui-part:/c%d/t1/0/%d", ch, k), "text/markdown", page)
				bt.Append(fmt.Sprintf("ahp-chat:/c%d", ch), seq, []byte(`{"x":1}`))
			}
			bt.Seq = seq
			if err := d.Commit(bt); err != nil {
				b.Fatal(err)
			}
		}
		bt := &Batch{Seq: seq}
		for ch := 0; ch < 40; ch += 2 {
			bt.Delete(fmt.Sprintf("ahp-chat:/c%d", ch))
			bt.DeleteResources(fmt.Sprintf("ahptui-part:/c%d/", ch))
		}
		if err := d.Commit(bt); err != nil {
			b.Fatal(err)
		}
		if err := d.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		d, err = Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		c = d.Compacted()
		if c.Before == 0 || d.CompactError() != nil {
			b.Fatalf("not compacted: %+v %v", c, d.CompactError())
		}
		took += c.Took
		_ = d.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(c.Before)/1e6, "before-MB")
	b.ReportMetric(float64(c.After)/1e6, "after-MB")
	b.ReportMetric(float64(c.After)*float64(b.N)/1e6/took.Seconds(), "kept-MB/s")
}
