package durable

import (
	"fmt"
	"os"
	"runtime"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A bbolt file never shrinks: the pages a disposed session or an evicted
// reply held are freed for the database's reuse, and keep their old bytes
// until reused. Open therefore rewrites a file whose free pages are a
// large share of it (compaction): the live data is copied into a new file
// beside it, which is synced and renamed over the old one, so the space
// goes back to the file system and the freed bytes leave the file. A crash
// or a full disk during the copy leaves the old file as it was (the copy
// is removed at the next Open).

// compactMinFree and compactShare decide when Open compacts: when the free
// pages hold at least compactMinFree bytes and at least 1/compactShare of
// the file's pages. A normal host keeps a few percent of its file free
// (pages a commit released and the next one reuses).
var (
	compactMinFree int64 = 1 << 20
	compactShare   int64 = 3
)

// compactTxBytes bounds one transaction of the copy: what it holds is in
// memory until it commits (unsynced: the copy is synced once, whole).
const compactTxBytes = 16 << 20

// compactSuffix names the copy being written beside the database.
const compactSuffix = ".compact"

// Compaction is what Open's compaction did.
type Compaction struct {
	// Before and After are the file's size before and after.
	Before, After int64
	// Took is how long the copy took.
	Took time.Duration
}

// Compacted returns what Open's compaction did (zero when the file was
// not compacted).
func (d *DB) Compacted() Compaction { return d.compacted }

// CompactError returns why Open could not compact the file (nil when it
// did or had no need to); the database is then the file as it was.
func (d *DB) CompactError() error { return d.compactErr }

// freeBytes returns the bytes of the file's free pages and of all its
// pages (the file may be longer: bbolt grows it ahead of its pages).
func (d *DB) freeBytes() (free, pages int64) {
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		pages = tx.Size()
		return nil
	})
	st := d.bolt.Stats()
	return int64(st.FreePageN+st.PendingPageN) * int64(d.bolt.Info().PageSize), pages
}

// compactIfWorth compacts the open database when its free pages are
// worth it (compactMinFree, compactShare). A failed compaction is
// returned with the database still open on the old file, unchanged.
func (d *DB) compactIfWorth() error {
	if runtime.GOOS == "windows" {
		return nil // a file in use cannot be renamed over there
	}
	free, pages := d.freeBytes()
	if free < compactMinFree || free*compactShare < pages {
		return nil
	}
	return d.compact()
}

// compact copies the database into a new file, syncs it and renames it
// over the old one. The new file is opened (and locked) before the rename
// and the old one closed after it, so no other process can take the path
// in between.
func (d *DB) compact() error {
	start := time.Now()
	before := fileSize(d.path)
	tmp := d.path + compactSuffix
	_ = os.Remove(tmp)
	dst, err := bolt.Open(tmp, 0o600, &bolt.Options{Timeout: 200 * time.Millisecond, FreelistType: bolt.FreelistMapType,
		NoFreelistSync: true, NoSync: true, InitialMmapSize: 64 << 20})
	if err != nil {
		return fmt.Errorf("compact the state database: %w", err)
	}
	// bbolt grows a file 16 MiB past what it needs once its map is larger
	// (it is: InitialMmapSize); the copy grows by what it needs only.
	grow := dst.AllocSize
	dst.AllocSize = 1 << 20
	fail := func(err error) error {
		_ = dst.Close()
		_ = os.Remove(tmp)
		return fmt.Errorf("compact the state database: %w", err)
	}
	if err := bolt.Compact(dst, d.bolt, compactTxBytes); err != nil {
		return fail(err)
	}
	if err := dst.Sync(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, d.path); err != nil {
		return fail(err)
	}
	dst.NoSync, dst.AllocSize = false, grow
	if err := syncDir(d.dir); err != nil {
		// The rename is done: the new file is the database from here on.
		_ = d.bolt.Close()
		d.bolt = dst
		return fmt.Errorf("compact the state database: sync its directory: %w", err)
	}
	_ = d.bolt.Close()
	d.bolt = dst
	d.compacted = Compaction{Before: before, After: fileSize(d.path), Took: time.Since(start)}
	return nil
}

// removeStaleCompaction removes the copy an interrupted compaction left.
func removeStaleCompaction(path string) {
	_ = os.Remove(path + compactSuffix)
}

// fileSize is the size of the file at path (0 when it cannot be read).
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// syncDir syncs directory dir (a rename in it is durable after).
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
