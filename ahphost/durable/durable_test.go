package durable

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestBatchRoundTrip: logs, snapshots, deletes and resources written by
// commits read back as written; a snapshot drops the log before it.
func TestBatchRoundTrip(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	b := &Batch{Seq: 3}
	b.Append("ahp-chat:/a", 1, []byte(`{"n":1}`))
	b.Append("ahp-chat:/a", 2, []byte(`{"n":2}`))
	b.Append("ahp-chat:/b", 3, []byte(`{"n":3}`))
	b.PutResource("ahptui-part:/a/t/0/0", "text/markdown", []byte("page"))
	must(t, d.Commit(b))
	b = &Batch{Seq: 5}
	b.Append("ahp-chat:/b", 4, []byte(`{"n":4}`))
	b.Snapshot("ahp-chat:/b", 4, []byte(`{"session":"s"}`), []byte(`{"state":4}`))
	b.Append("ahp-chat:/b", 5, []byte(`{"n":5}`))
	b.Snapshot("ahp-chat:/c", 5, nil, []byte(`{}`))
	b.Delete("ahp-chat:/c")
	must(t, d.Commit(b))
	must(t, d.Close())

	d, err = Open(dir)
	must(t, err)
	defer d.Close()
	st, err := d.Load()
	must(t, err)
	if st.Seq != 5 || len(st.Channels) != 2 {
		t.Fatalf("seq %d, channels %+v", st.Seq, st.Channels)
	}
	a, c := st.Channels[0], st.Channels[1]
	if a.URI != "ahp-chat:/a" || a.State != nil || len(a.Log) != 2 || string(a.Log[1]) != `{"n":2}` {
		t.Fatalf("a = %+v", a)
	}
	if c.URI != "ahp-chat:/b" || string(c.State) != `{"state":4}` || c.SnapSeq != 4 || string(c.Meta) != `{"session":"s"}` ||
		len(c.Log) != 1 || string(c.Log[0]) != `{"n":5}` {
		t.Fatalf("b = %+v (logs %q)", c, c.Log)
	}
	if ct, data, ok, err := d.Resource("ahptui-part:/a/t/0/0"); err != nil || !ok || ct != "text/markdown" || string(data) != "page" {
		t.Fatalf("resource: %q %q %v %v", ct, data, ok, err)
	}
	b = &Batch{Seq: 6}
	b.DeleteResources("ahptui-part:/a/")
	must(t, d.Commit(b))
	if _, _, ok, _ := d.Resource("ahptui-part:/a/t/0/0"); ok {
		t.Fatal("resource kept after DeleteResources")
	}
}

// TestOpenLockedAndDamaged: a second Open names the holder; a file that
// is not a database is a CorruptError and stays as it was.
func TestOpenLockedAndDamaged(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	must(t, d.SetOwner("127.0.0.1:9"))
	_, err = Open(dir)
	var le *LockedError
	if !errors.As(err, &le) || le.Owner.PID != os.Getpid() || !strings.Contains(err.Error(), "127.0.0.1:9") {
		t.Fatalf("second open: %v", err)
	}
	must(t, d.Close())

	bad := t.TempDir()
	path := filepath.Join(bad, FileName)
	junk := []byte(strings.Repeat("x", 10000))
	must(t, os.WriteFile(path, junk, 0o600))
	_, err = Open(bad)
	var ce *CorruptError
	if !errors.As(err, &ce) {
		t.Fatalf("open of junk: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(junk) {
		t.Fatal("the damaged file was changed")
	}
}

// TestResourcesUnder: the count and bytes of the resources under a
// prefix, and none once they are deleted; a prefix does not reach a
// neighbour whose URI only starts like it.
func TestResourcesUnder(t *testing.T) {
	d, err := Open(t.TempDir())
	must(t, err)
	defer d.Close()
	b := &Batch{Seq: 1}
	b.PutResource("ahp-content:/a/t1/before", "text/plain", []byte("12345"))
	b.PutResource("ahp-content:/a/t1/after", "text/plain", []byte("1234567"))
	b.PutResource("ahp-content:/ab/t1/after", "text/plain", []byte("xyz"))
	must(t, d.Commit(b))
	if n, size := d.ResourcesUnder("ahp-content:/a/"); n != 2 || size != 12 {
		t.Fatalf("under a/: %d resources, %d bytes", n, size)
	}
	b = &Batch{Seq: 2}
	b.DeleteResources("ahp-content:/a/")
	must(t, d.Commit(b))
	if n, size := d.ResourcesUnder("ahp-content:/a/"); n != 0 || size != 0 {
		t.Fatalf("after the delete: %d resources, %d bytes", n, size)
	}
	if n, size := d.ResourcesUnder("ahp-content:/ab/"); n != 1 || size != 3 {
		t.Fatalf("the neighbour: %d resources, %d bytes", n, size)
	}
}
