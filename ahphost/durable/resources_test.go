package durable

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestResourceStoredAgain: a resource longer than a page reads back whole;
// storing it again shorter replaces it; its size is its length; a
// resource whose URI the first one's is a prefix of is a resource of its
// own, and deleting one leaves the other.
func TestResourceStoredAgain(t *testing.T) {
	d, err := Open(t.TempDir())
	must(t, err)
	defer d.Close()
	long := bytes.Repeat([]byte("0123456789abcdef"), 3*4096/16+7) // 3 chunks and a bit
	b := &Batch{Seq: 1}
	b.PutResource("r:/page/1", "text/markdown", long)
	b.PutResource("r:/page/10", "text/plain", []byte("ten"))
	must(t, d.Commit(b))
	if ct, data, ok, err := d.Resource("r:/page/1"); err != nil || !ok || ct != "text/markdown" || !bytes.Equal(data, long) {
		t.Fatalf("long resource: %q %d bytes %v %v", ct, len(data), ok, err)
	}
	if _, n, ok := d.ResourceSize("r:/page/1"); !ok || n != int64(len(long)) {
		t.Fatalf("size %d %v, want %d", n, ok, len(long))
	}
	b = &Batch{Seq: 2}
	b.PutResource("r:/page/1", "text/markdown", []byte("short"))
	must(t, d.Commit(b))
	if _, data, _, err := d.Resource("r:/page/1"); err != nil || string(data) != "short" {
		t.Fatalf("stored again: %q %v", data, err)
	}
	if _, data, _, err := d.Resource("r:/page/10"); err != nil || string(data) != "ten" {
		t.Fatalf("the other resource: %q %v", data, err)
	}
	stored := 0
	must(t, d.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bktResOwn).ForEach(func(k, _ []byte) error { stored++; return nil })
	}))
	if stored != 2 {
		t.Fatalf("%d resources stored, want 2", stored)
	}
	b = &Batch{Seq: 3}
	b.DeleteResource("r:/page/1")
	must(t, d.Commit(b))
	if _, _, ok, _ := d.Resource("r:/page/1"); ok {
		t.Fatal("deleted resource read")
	}
	if _, data, _, _ := d.Resource("r:/page/10"); string(data) != "ten" {
		t.Fatalf("deleting r:/page/1 took r:/page/10: %q", data)
	}
}

// TestResourcePagesWriteFlat: storing a streamed reply's pages a few per
// commit writes about their bytes, not the pages stored before them again
// (whole 64 KiB values side by side in one bucket shared B+tree leaves
// with up to three earlier pages, and every commit rewrote them: 1.96
// times the bytes here).
func TestResourcePagesWriteFlat(t *testing.T) {
	d, err := Open(t.TempDir())
	must(t, err)
	defer d.Close()
	page := bytes.Repeat([]byte("x"), 64<<10)
	total := 0
	w0 := d.Written()
	for c := range 12 {
		b := &Batch{Seq: uint64(c + 1)}
		for k := range 4 {
			b.PutResource(fmt.Sprintf("ahptui-part:/chat/t1/0/%d", c*4+k), "text/markdown", page)
			total += len(page)
		}
		must(t, d.Commit(b))
	}
	if w := d.Written() - w0; float64(w) > 1.15*float64(total) {
		t.Fatalf("storing %d bytes of pages wrote %d (%.2fx)", total, w, float64(w)/float64(total))
	}
}

// TestFormat2Resources: a resource stored whole (format 2: res/<uri> and
// restype/<uri>) reads back, its size too, and storing it again replaces
// it.
func TestFormat2Resources(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
	must(t, err)
	must(t, db.Update(func(tx *bolt.Tx) error {
		m, _ := tx.CreateBucket(bktMeta)
		_ = m.Put(keyFormat, u64(2))
		_ = m.Put(keyInstance, []byte("0123456789abcdef"))
		_ = m.Put(keySeq, u64(1))
		_, _ = tx.CreateBucket(bktChans)
		res, _ := tx.CreateBucket(bktRes)
		types, _ := tx.CreateBucket(bktResType)
		_ = res.Put([]byte("r:/old"), []byte("old page"))
		return types.Put([]byte("r:/old"), []byte("text/markdown"))
	}))
	must(t, db.Close())

	d, err := Open(dir)
	must(t, err)
	defer d.Close()
	if ct, data, ok, err := d.Resource("r:/old"); err != nil || !ok || ct != "text/markdown" || string(data) != "old page" {
		t.Fatalf("format 2 resource: %q %q %v %v", ct, data, ok, err)
	}
	if _, n, ok := d.ResourceSize("r:/old"); !ok || n != 8 {
		t.Fatalf("size %d %v", n, ok)
	}
	b := &Batch{Seq: 2}
	b.PutResource("r:/old", "text/plain", []byte("new"))
	must(t, d.Commit(b))
	if ct, data, _, _ := d.Resource("r:/old"); ct != "text/plain" || string(data) != "new" {
		t.Fatalf("stored again: %q %q", ct, data)
	}
	must(t, d.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bktRes).Get([]byte("r:/old")); v != nil {
			t.Errorf("format 2 value kept: %q", v)
		}
		if f := tx.Bucket(bktMeta).Get(keyFormat); binary.BigEndian.Uint64(f) != formatVersion {
			t.Errorf("format %x", f)
		}
		return nil
	}))
}

// BenchmarkCommitPages is the database's part of a streamed 3 MB reply:
// 48 pages of 64 KiB stored 4 per commit (each op is one reply, into a
// database that grows by one reply per op). It reports the bytes written
// per reply (db-MB/reply).
func BenchmarkCommitPages(b *testing.B) {
	d, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	page := bytes.Repeat([]byte("x"), 64<<10)
	w0 := d.Written()
	seq := uint64(0)
	b.SetBytes(48 << 16)
	for i := 0; i < b.N; i++ {
		for c := range 12 {
			seq++
			bt := &Batch{Seq: seq}
			for k := range 4 {
				bt.PutResource(fmt.Sprintf("ahptui-part:/chat/t%d/0/%d", i, c*4+k), "text/markdown", page)
			}
			if err := d.Commit(bt); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(d.Written()-w0)/float64(b.N)/(1<<20), "db-MB/reply")
}
