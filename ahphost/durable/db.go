package durable

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// FileName is the database's name in the state directory.
const FileName = "state.db"

// formatVersion is the layout version written in meta/format. A build
// reads the files of every earlier build with the same version (the
// fixture of cli's TestServeOpensAnEarlierBuildsState was written by an
// earlier build); a change of layout that such a build could not read
// must raise it, so that the earlier build refuses the new file with a
// *VersionError instead of misreading it.
//
// Version 1 kept a channel's snapshot as a value beside its log bucket, so
// that every commit appending to the log rewrote the snapshot's pages too
// (the two shared one B+tree leaf: a streaming reply cost more the longer
// its chat); version 2 keeps it in a bucket of its own, splits long log
// records, and keeps a resource's content type apart from its bytes
// (restype), so that storing a page does not copy it first. Open reads
// version 1 and marks the file version 2 (olderFormat): what it writes
// from then on a version-1 build would misread. Version 3 stores a
// resource's bytes in a bucket of its own (resc), so that storing a reply's
// next page does not rewrite the pages stored before it; Open reads
// versions 1 and 2 and marks the file version 3.
const formatVersion = 3

// olderFormat is the earliest layout version Open still reads (and
// upgrades to formatVersion).
const olderFormat = 1

// Bucket and key names.
var (
	bktMeta     = []byte("meta")
	bktChans    = []byte("chans")
	bktRes      = []byte("res")
	bktResType  = []byte("restype")
	bktResOwn   = []byte("resc")
	keyData     = []byte("d")
	bktSnap     = []byte("snapshot")
	keyState    = []byte("state")
	bktLog      = []byte("log")
	keySeq      = []byte("seq")
	keyInstance = []byte("instance")
	keyFormat   = []byte("format")
	keyMeta     = []byte("meta")
	keySnap     = []byte("snap")
	keySnapSeq  = []byte("snapseq")
)

// DB is an open state database. Commit and the reads are safe for
// concurrent use (bbolt serialises writers; reads see the last commit).
type DB struct {
	bolt      *bolt.DB
	dir       string
	path      string
	instance  string
	lastWrite time.Time
	upgraded  uint64 // the layout version Open upgraded the file from (0: none)
	// compacted is what Open's compaction did; compactErr why it failed
	// (the old file is then used as it was).
	compacted  Compaction
	compactErr error
}

// LockedError is Open's error when another process holds the database.
type LockedError struct {
	// Path is the database file.
	Path string
	// Owner is what that process recorded (zero when unknown).
	Owner Owner
}

func (e *LockedError) Error() string {
	who := "another ahptui host"
	if e.Owner.PID > 0 {
		who += fmt.Sprintf(" (pid %d", e.Owner.PID)
		if e.Owner.Addr != "" {
			who += ", " + e.Owner.Addr
		}
		who += ")"
	}
	return fmt.Sprintf("the state database %s is in use by %s; stop it, or give this host another state directory with --state-dir", e.Path, who)
}

// CorruptError is the error for a database file that cannot be read. The
// file is left as it is.
type CorruptError struct {
	// Path is the database file.
	Path string
	// Err is what was wrong.
	Err error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the state database %s is damaged (%v); the host will not start on it and has not changed it: "+
		"move it away (or start with another --state-dir) to start with no sessions, or restore it from a backup", e.Path, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// VersionError is Open's error for a database whose layout version this
// build does not read: one written by a newer ahptui. The file is left as
// it is.
type VersionError struct {
	// Path is the database file.
	Path string
	// Version is the file's layout version.
	Version uint64
}

func (e *VersionError) Error() string {
	by := "an ahptui this build does not know"
	if e.Version > formatVersion {
		by = "a newer ahptui"
	}
	return fmt.Sprintf("the state database %s has layout version %d, written by %s; this ahptui reads layout version %d (and %d, which it upgrades). "+
		"The host will not start on it and has not changed it: run the ahptui that wrote it (or a newer one), "+
		"or start with another --state-dir", e.Path, e.Version, by, formatVersion, olderFormat)
}

// unopenable is why the file at path could not be opened: a
// *CorruptError, unless this user may not open it (a file another account
// made: the host would otherwise call a sound file damaged and advise
// restoring a backup).
func unopenable(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("the state database %s cannot be opened by this user (%w); the host will not start on it and has not changed it: "+
			"run it as the user who owns the file, or give this one read and write access to it and its directory, or start with another --state-dir", path, err)
	}
	return &CorruptError{Path: path, Err: err}
}

// Open opens (creating when missing) the database in dir and takes its
// lock. A database held by another process is a *LockedError; one that
// cannot be read is a *CorruptError (unless this user may not open it:
// unopenable), one of a layout version this build
// does not read a *VersionError; on those paths the file is not written.
// A file whose free pages are a large share of it is compacted
// (compact.go; Compacted, CompactError).
func Open(dir string) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	path := filepath.Join(dir, FileName)
	var lastWrite time.Time
	if st, err := os.Stat(path); err == nil {
		if st.Size() > 0 && st.Size() < 4096 {
			return nil, &CorruptError{Path: path, Err: fmt.Errorf("file truncated to %d bytes", st.Size())}
		}
		lastWrite = st.ModTime()
		if err := checkLength(path, st.Size()); err != nil {
			return nil, unopenable(path, err)
		}
		switch err := walk(path); {
		case errors.Is(err, errLocked):
			return nil, &LockedError{Path: path, Owner: readOwner(dir)}
		case err != nil:
			return nil, unopenable(path, err)
		}
	}
	b, err := openBolt(path)
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return nil, &LockedError{Path: path, Owner: readOwner(dir)}
	case err != nil:
		return nil, unopenable(path, err)
	}
	d := &DB{bolt: b, dir: dir, path: path, lastWrite: lastWrite}
	if err := d.init(); err != nil {
		_ = b.Close()
		return nil, err
	}
	removeStaleCompaction(path) // (the lock is held: no other host is compacting)
	d.compactErr = d.compactIfWorth()
	return d, nil
}

// openBolt opens the bbolt file, turning its panics on damaged pages into
// errors.
func openBolt(path string) (b *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	// The freelist is not written at every commit (it is rebuilt by a scan
	// at open), and the map starts large enough for most hosts: both take
	// work off each commit of a streaming reply.
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: 200 * time.Millisecond, FreelistType: bolt.FreelistMapType,
		NoFreelistSync: true, InitialMmapSize: 64 << 20})
}

// init checks an existing file (read-only: a file refused is not
// written) and creates the top buckets of a new one.
func (d *DB) init() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CorruptError{Path: d.path, Err: fmt.Errorf("%v", r)}
		}
	}()
	complete := false
	err = d.bolt.View(func(tx *bolt.Tx) error {
		m := tx.Bucket(bktMeta)
		if m == nil {
			if tx.Bucket(bktChans) != nil {
				return errors.New("meta bucket missing")
			}
			return nil
		}
		f := m.Get(keyFormat)
		if len(f) != 8 {
			return fmt.Errorf("layout version record %x", f)
		}
		v := binary.BigEndian.Uint64(f)
		if v > formatVersion || v < olderFormat {
			return &VersionError{Path: d.path, Version: v}
		}
		d.instance = string(m.Get(keyInstance))
		if v < formatVersion {
			d.upgraded = v
		}
		complete = v == formatVersion && tx.Bucket(bktChans) != nil && tx.Bucket(bktRes) != nil && tx.Bucket(bktResType) != nil && tx.Bucket(bktResOwn) != nil
		return nil
	})
	if err == nil && !complete {
		err = d.bolt.Update(func(tx *bolt.Tx) error {
			m, err := tx.CreateBucketIfNotExists(bktMeta)
			if err != nil {
				return err
			}
			if m.Get(keyFormat) == nil {
				id := make([]byte, 8)
				_, _ = rand.Read(id)
				_ = m.Put(keyInstance, []byte(hex.EncodeToString(id)))
			}
			if err := m.Put(keyFormat, u64(formatVersion)); err != nil { // new, or upgraded from olderFormat
				return err
			}
			for _, name := range [][]byte{bktChans, bktRes, bktResType, bktResOwn} {
				if _, err := tx.CreateBucketIfNotExists(name); err != nil {
					return err
				}
			}
			d.instance = string(m.Get(keyInstance))
			return nil
		})
	}
	if err != nil {
		d.upgraded = 0
	}
	var ce *CorruptError
	var ve *VersionError
	if err != nil && !errors.As(err, &ce) && !errors.As(err, &ve) {
		err = &CorruptError{Path: d.path, Err: err}
	}
	return err
}

// LastWrite returns the file's modification time when Open found it:
// about when the process that wrote it last committed (zero for a new
// file). A start after a crash dates the turns it interrupted by it.
func (d *DB) LastWrite() time.Time { return d.lastWrite }

// UpgradedFrom returns the layout version Open found and upgraded the file
// from (to LayoutVersion), or 0 when the file was new or already of this
// build's layout. Builds that read only the older layout refuse it now.
func (d *DB) UpgradedFrom() uint64 { return d.upgraded }

// LayoutVersion is the layout version this build writes.
const LayoutVersion = formatVersion

// Path returns the database file's path.
func (d *DB) Path() string { return d.path }

// Instance returns the random id made when the file was created.
func (d *DB) Instance() string { return d.instance }

// Size returns the bytes the database holds: its file's size less its
// free pages.
func (d *DB) Size() int64 {
	var n int64
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		n = tx.Size()
		return nil
	})
	st := d.bolt.Stats()
	return n - int64(st.FreePageN+st.PendingPageN)*int64(d.bolt.Info().PageSize)
}

// FileSize returns the size of the database's file (what it takes on
// disk, its free pages included; 0 when it cannot be read).
func (d *DB) FileSize() int64 { return fileSize(d.path) }

// Close releases the database and its lock (the owner file is removed).
func (d *DB) Close() error {
	_ = os.Remove(filepath.Join(d.dir, ownerFile))
	if err := d.bolt.Close(); err != nil {
		return fmt.Errorf("close state database: %w", err)
	}
	return nil
}

// u64 encodes n as 8 bytes, big endian (keys sort by number).
func u64(n uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, n)
	return b
}

// Written returns the bytes of pages the commits since Open wrote (the
// database's write amplification shows as Written over what was stored).
func (d *DB) Written() int64 {
	st := d.bolt.Stats()
	return st.TxStats.GetPageAlloc()
}
