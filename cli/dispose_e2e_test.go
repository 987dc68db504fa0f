package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost/durable"
)

// storedNaming lists the channels and resources of the database in dir
// whose URI names id, and returns the bytes the file holds in use.
func storedNaming(t *testing.T, dir, id string) ([]string, int64) {
	t.Helper()
	db, err := durable.Open(dir)
	must(t, err)
	defer db.Close()
	st, err := db.Load()
	must(t, err)
	var named []string
	for _, ch := range st.Channels {
		if strings.Contains(ch.URI, id) {
			named = append(named, ch.URI)
		}
	}
	for _, uri := range []string{"after/cmd/app/main.go", "before/cmd/app/main.go", "after/testdata/large.tsv", "before/testdata/large.tsv"} {
		// /demo edit's diff sides (ahp-content:/SESSION/CHANGESET/...).
		full := "ahp-content:/" + id + "/9c95868a-703b-418b-9750-3a03a9897a68/" + uri
		if _, _, ok := db.ResourceSize(full); ok {
			named = append(named, full)
		}
	}
	return named, db.Size()
}

// TestServeDisposeDeletesFromDisk: disposing of a session on a real
// `serve` removes from its database everything of the session — its
// session, chat, changeset and annotations channels and its changeset's
// stored diff sides (1.4 MB here) — and frees their pages, so the file
// holds that much less; the other sessions stay. The freed pages keep
// their bytes until the next start, which compacts the file (they are
// most of it): it shrinks, says so in its log, and no byte of the
// session is left in it.
func TestServeDisposeDeletesFromDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	r := newDurableRig(t)
	unpackUpgradeFixture(t, r.state)
	named, size := storedNaming(t, r.state, upgradeLayout)
	if len(named) != 8 { // 4 channels, 4 of the diff sides looked for
		t.Fatalf("the fixture holds %v", named)
	}
	r.start()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: r.url(), Token: "tok-durable", StateDir: t.TempDir()})
	must(t, err)
	defer c.Close()
	must(t, c.Start(ctx))
	must(t, c.DisposeSession(ctx, "ahp-session:/"+upgradeLayout))
	_ = c.Close()
	r.stop(syscall.SIGTERM)

	path := filepath.Join(r.state, durable.FileName)
	raw, err := os.ReadFile(path)
	must(t, err)
	if !bytes.Contains(raw, []byte(upgradeLayout)) {
		t.Fatal("the freed pages do not hold the disposed session's id: the check below would show nothing")
	}
	r.start()
	deadline := time.Now().Add(testTimeout)
	for !strings.Contains(r.errb.String(), "compacted the state database") {
		if time.Now().After(deadline) {
			t.Fatalf("the restarted host did not compact its database; its log:\n%s", r.errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.stop(syscall.SIGTERM)
	compacted, err := os.ReadFile(path)
	must(t, err)
	if bytes.Contains(compacted, []byte(upgradeLayout)) || len(compacted) >= len(raw) {
		t.Fatalf("after the restart the file is %d bytes (was %d) and holds the disposed session's id: %v",
			len(compacted), len(raw), bytes.Contains(compacted, []byte(upgradeLayout)))
	}

	left, after := storedNaming(t, r.state, upgradeLayout)
	if len(left) != 0 {
		t.Fatalf("after disposeSession the database still holds %v", left)
	}
	if freed := size - after; freed < 1<<20 {
		t.Fatalf("disposeSession freed %d bytes of %d (the session's diff sides alone are 1.4 MB)", freed, size)
	}
	if others, _ := storedNaming(t, r.state, upgradeDenied); len(others) != 2 {
		t.Fatalf("the other session's channels: %v", others)
	}
}
