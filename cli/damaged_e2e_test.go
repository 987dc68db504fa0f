package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// TestServeRefusesCutOrDamagedDatabase: `serve` on a database an earlier
// build wrote, cut short (as a full disk or an interrupted copy leaves it)
// or with a damaged page, exits with a message saying the file is damaged
// and naming it — no stack dump of a fault or a panic — and leaves the file
// as it was.
func TestServeRefusesCutOrDamagedDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("real processes")
	}
	for _, tc := range []struct {
		name, want string
		damage     func(t *testing.T, path string)
	}{
		{"cut", "file truncated", func(t *testing.T, path string) { must(t, os.Truncate(path, 1_000_000)) }}, // its last commit holds 1.7 MB
		{"page", "damaged", damageChansRoot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newDurableRig(t)
			unpackUpgradeFixture(t, r.state)
			path := filepath.Join(r.state, "state.db")
			tc.damage(t, path)
			before, err := os.ReadFile(path)
			must(t, err)
			cmd := exec.Command(r.bin, "serve", "--addr", "127.0.0.1:0", "--state-dir", r.state, "--dir", r.proj)
			cmd.Env = r.env
			out, err := cmd.CombinedOutput()
			msg := string(out)
			if err == nil || !strings.Contains(msg, "is damaged") || !strings.Contains(msg, tc.want) || !strings.Contains(msg, path) ||
				strings.Contains(msg, "goroutine ") {
				t.Fatalf("serve on a %s database: %v\n%s", tc.name, err, msg)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Fatal("the damaged database was changed")
			}
		})
	}
}

// damageChansRoot overwrites the header of the page at the root of the
// database's channel bucket with junk.
func damageChansRoot(t *testing.T, path string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	must(t, err)
	var root int64
	must(t, db.View(func(tx *bolt.Tx) error {
		root = int64(tx.Bucket([]byte("chans")).Root())
		return nil
	}))
	page := int64(db.Info().PageSize)
	must(t, db.Close())
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteAt([]byte("JUNKJUNKJUNKJUNK"), root*page)
	must(t, err)
	must(t, f.Close())
}
