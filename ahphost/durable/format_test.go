package durable

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// setFormat rewrites the layout version of the closed database in dir, as
// a build with another layout would have written it.
func setFormat(t *testing.T, dir string, version uint64) {
	t.Helper()
	b, err := bolt.Open(filepath.Join(dir, FileName), 0o600, nil)
	must(t, err)
	must(t, b.Update(func(tx *bolt.Tx) error { return tx.Bucket(bktMeta).Put(keyFormat, u64(version)) }))
	must(t, b.Close())
}

// TestOpenRefusesNewerLayout: a database whose layout version this build
// does not read (a newer ahptui's) is refused with a *VersionError naming
// the file and both versions, and neither its bytes nor its modification
// time change; the same file with this build's version opens and keeps
// what it held.
func TestOpenRefusesNewerLayout(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	b := &Batch{Seq: 1}
	b.Append("ahp-chat:/a", 1, []byte(`{"n":1}`))
	must(t, d.Commit(b))
	must(t, d.Close())
	setFormat(t, dir, formatVersion+1)

	path := filepath.Join(dir, FileName)
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	must(t, os.Chtimes(path, old, old))
	before, err := os.ReadFile(path)
	must(t, err)

	_, err = Open(dir)
	var ve *VersionError
	if !errors.As(err, &ve) || ve.Version != formatVersion+1 {
		t.Fatalf("open of a newer layout: %v", err)
	}
	for _, want := range []string{path, fmt.Sprintf("layout version %d", formatVersion+1), "newer ahptui",
		fmt.Sprintf("reads layout version %d", formatVersion), "has not changed it"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("the refusal does not say %q: %v", want, err)
		}
	}
	after, err := os.ReadFile(path)
	must(t, err)
	st, err := os.Stat(path)
	must(t, err)
	if !bytes.Equal(before, after) || !st.ModTime().Equal(old) {
		t.Fatalf("the refused file was written (bytes equal %v, mtime %v, was %v)", bytes.Equal(before, after), st.ModTime(), old)
	}
	if _, err := os.Stat(filepath.Join(dir, ownerFile)); !os.IsNotExist(err) {
		t.Fatalf("a refused open left an owner record: %v", err)
	}

	setFormat(t, dir, formatVersion)
	d, err = Open(dir)
	must(t, err)
	defer d.Close()
	got, err := d.Load()
	must(t, err)
	if got.Seq != 1 || len(got.Channels) != 1 || string(got.Channels[0].Log[0]) != `{"n":1}` {
		t.Fatalf("after the version is this build's again: %+v", got)
	}
}

// TestLastWriteIsTheFilesTime: LastWrite is the file's modification time
// as Open found it (when its writer last committed), not the time of this
// open; a new file has none.
func TestLastWriteIsTheFilesTime(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	if !d.LastWrite().IsZero() {
		t.Fatalf("a new file has a last write: %v", d.LastWrite())
	}
	must(t, d.Close())
	when := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	must(t, os.Chtimes(filepath.Join(dir, FileName), when, when))
	d, err = Open(dir)
	must(t, err)
	defer d.Close()
	if !d.LastWrite().Equal(when) {
		t.Fatalf("LastWrite %v, want the file's %v", d.LastWrite(), when)
	}
}

// TestOpenSaysItUpgraded: opening a file of an older layout upgrades it
// and says from which version (the host logs it: builds that read only
// that layout refuse the file from then on); a file already of this
// build's layout, or a new one, was not upgraded.
func TestOpenSaysItUpgraded(t *testing.T) {
	dir := t.TempDir()
	d, err := Open(dir)
	must(t, err)
	if v := d.UpgradedFrom(); v != 0 {
		t.Fatalf("a new file upgraded from %d", v)
	}
	must(t, d.Close())
	setFormat(t, dir, formatVersion-1)
	d, err = Open(dir)
	must(t, err)
	if v := d.UpgradedFrom(); v != formatVersion-1 {
		t.Fatalf("a file of layout %d: UpgradedFrom %d", formatVersion-1, v)
	}
	must(t, d.Close())
	d, err = Open(dir)
	must(t, err)
	defer d.Close()
	if v := d.UpgradedFrom(); v != 0 {
		t.Fatalf("the upgraded file opened again: UpgradedFrom %d", v)
	}
}
