package durable

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Channel is one stored channel: its snapshot and the envelopes after it.
type Channel struct {
	// URI is the channel's URI.
	URI string
	// Meta is the host's own fields of the channel.
	Meta []byte
	// State is the channel's state at SnapSeq (nil when only a log was
	// stored: the channel was never snapshotted).
	State []byte
	// SnapSeq is the serverSeq State is at.
	SnapSeq uint64
	// Log holds the envelopes after SnapSeq, in serverSeq order.
	Log [][]byte
}

// Stored is everything Load reads.
type Stored struct {
	// Seq is the last serverSeq a commit covered.
	Seq uint64
	// Channels are the stored channels, in URI order.
	Channels []Channel
	// Stubs are the channels LoadLazy left on disk, in URI order.
	Stubs []Stub
}

// Load reads every channel. A value it cannot decode is a *CorruptError.
func (d *DB) Load() (Stored, error) { return d.LoadLazy(nil) }

// Stub is a channel Load left on disk: its URI, its meta and the size of
// its snapshot (read without touching the snapshot's bytes).
type Stub struct {
	// URI is the channel's URI.
	URI string
	// Meta is the host's own fields of the channel.
	Meta []byte
	// SnapBytes is the size of the stored snapshot.
	SnapBytes int64
	// LogBytes is the size of the logged envelopes after it (their values'
	// lengths, read from the log's leaves without touching the values).
	LogBytes int64
}

// logBytes sums the sizes of a channel's log values.
func logBytes(b *bolt.Bucket) int64 {
	lb := b.Bucket(bktLog)
	if lb == nil {
		return 0
	}
	var n int64
	c := lb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		n += int64(len(v))
	}
	return n
}

// LoadLazy is Load for the channels lazy does not pick; of those it picks
// (nil: none) it reads only the meta, in Stored.Stubs, so that a start
// reads what the session list needs and not every chat (Channel reads one
// when it is wanted).
func (d *DB) LoadLazy(lazy func(uri string) bool) (st Stored, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CorruptError{Path: d.path, Err: fmt.Errorf("%v", r)}
		}
	}()
	err = d.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bktMeta).Get(keySeq); len(v) == 8 {
			st.Seq = binary.BigEndian.Uint64(v)
		}
		chans := tx.Bucket(bktChans)
		return chans.ForEachBucket(func(k []byte) error {
			b := chans.Bucket(k)
			if lazy != nil && lazy(string(k)) {
				st.Stubs = append(st.Stubs, Stub{URI: string(k), Meta: bytes.Clone(b.Get(keyMeta)), SnapBytes: int64(len(snapshot(b))), LogBytes: logBytes(b)})
				return nil
			}
			ch, err := loadChannel(b, string(k))
			if err != nil {
				return err
			}
			st.Channels = append(st.Channels, ch)
			return nil
		})
	})
	return st, asCorrupt(d.path, err)
}

// Channel reads one stored channel; ok is false when it is not stored. A
// value it cannot decode is a *CorruptError.
func (d *DB) Channel(uri string) (ch Channel, ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CorruptError{Path: d.path, Err: fmt.Errorf("%v", r)}
		}
	}()
	err = d.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bktChans).Bucket([]byte(uri))
		if b == nil {
			return nil
		}
		var err error
		ch, err = loadChannel(b, uri)
		ok = err == nil
		return err
	})
	return ch, ok, asCorrupt(d.path, err)
}

// asCorrupt wraps a read error of the file at path as a *CorruptError.
func asCorrupt(path string, err error) error {
	var ce *CorruptError
	if err != nil && !errors.As(err, &ce) {
		err = &CorruptError{Path: path, Err: err}
	}
	return err
}

// loadChannel reads one channel bucket (copies: bbolt's values live only
// as long as the transaction).
func loadChannel(b *bolt.Bucket, uri string) (Channel, error) {
	ch := Channel{URI: uri, Meta: bytes.Clone(b.Get(keyMeta)), State: bytes.Clone(snapshot(b))}
	if v := b.Get(keySnapSeq); len(v) == 8 {
		ch.SnapSeq = binary.BigEndian.Uint64(v)
	}
	lb := b.Bucket(bktLog)
	if lb == nil {
		return ch, nil
	}
	var rec []byte // a record split in chunks, joined
	flush := func() error {
		for v := rec; len(v) > 0; {
			n, k := binary.Uvarint(v)
			if k <= 0 || uint64(len(v)-k) < n {
				return fmt.Errorf("channel %.200s: damaged log record", uri)
			}
			ch.Log = append(ch.Log, bytes.Clone(v[k:k+int(n)]))
			v = v[k+int(n):]
		}
		rec = rec[:0]
		return nil
	}
	err := lb.ForEach(func(k, v []byte) error {
		switch len(k) {
		case 8: // a record's first chunk
			if err := flush(); err != nil {
				return err
			}
		case 12: // the next chunk of the record before
		default:
			return fmt.Errorf("channel %.200s: damaged log key", uri)
		}
		rec = append(rec, v...)
		return nil
	})
	if err == nil {
		err = flush()
	}
	return ch, err
}

// snapshot is a channel bucket's snapshot (nil when it has none): in its
// own bucket, or format 1's value beside the log.
func snapshot(b *bolt.Bucket) []byte {
	if sb := b.Bucket(bktSnap); sb != nil {
		return sb.Get(keyState)
	}
	return b.Get(keySnap)
}

// Seq returns the last serverSeq a commit covered.
func (d *DB) Seq() uint64 {
	var n uint64
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bktMeta).Get(keySeq); len(v) == 8 {
			n = binary.BigEndian.Uint64(v)
		}
		return nil
	})
	return n
}
