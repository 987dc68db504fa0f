package durable

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// filledDB writes a database of about 2 MB (channels with logs and
// snapshots, pages in res) in a new directory and returns it.
func filledDB(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	seq := uint64(0)
	for c := range 40 {
		b := &Batch{}
		uri := fmt.Sprintf("ahp-chat:/s%02d", c)
		for range 50 {
			seq++
			b.Append(uri, seq, fmt.Appendf(nil, `{"serverSeq":%d,"action":{"type":"chat/delta","content":"some streamed text"}}`, seq))
		}
		b.Snapshot(fmt.Sprintf("ahp-session:/s%02d", c), seq, []byte(`{}`), bytes.Repeat([]byte("s"), 40<<10))
		b.Seq = seq
		must(t, d.Commit(b))
	}
	must(t, d.Close())
	return dir
}

// damageRootPage overwrites the page header of the chans bucket's root
// page (a page every read of a channel goes through) with junk.
func damageRootPage(t *testing.T, path string) {
	t.Helper()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	must(t, err)
	var root uint64
	must(t, b.View(func(tx *bolt.Tx) error {
		root = uint64(tx.Bucket(bktChans).Root())
		return nil
	}))
	size := int64(b.Info().PageSize)
	must(t, b.Close())
	if root < 2 {
		t.Fatalf("the chans bucket is inline (root %d)", root)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteAt([]byte("JUNKJUNKJUNKJUNK"), int64(root)*size)
	must(t, err)
	must(t, f.Close())
}

// TestOpenRefusesTruncatedOrDamagedPages: a file cut short (shorter than
// its last commit) or with a page bbolt cannot read is refused with a
// *CorruptError saying so — not a fault or a panic in bbolt's free-list
// scan, which runs in a goroutine of its own and would end the process
// with a stack dump — and the file is left as it was.
func TestOpenRefusesTruncatedOrDamagedPages(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		damage     func(path string)
	}{
		{"cut in half", "file truncated", func(p string) {
			b, err := bolt.Open(p, 0o600, &bolt.Options{ReadOnly: true})
			must(t, err)
			var used int64
			must(t, b.View(func(tx *bolt.Tx) error { used = tx.Size(); return nil }))
			must(t, b.Close())
			must(t, os.Truncate(p, used/2)) // half of what its last commit holds
		}},
		{"page header", "", func(p string) { damageRootPage(t, p) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filledDB(t)
			path := filepath.Join(dir, FileName)
			tc.damage(path)
			before, err := os.ReadFile(path)
			must(t, err)
			_, err = Open(dir)
			var ce *CorruptError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("open of a damaged file: %v", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Fatal("the damaged file was changed")
			}
		})
	}
}
