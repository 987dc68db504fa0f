package durable

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

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
}

// Load reads every channel. A value it cannot decode is a *CorruptError.
func (d *DB) Load() (st Stored, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CorruptError{Path: d.path, Err: fmt.Errorf("%v", r)}
		}
	}()
	err = d.bolt.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bktMeta).Get(keySeq); len(v) == 8 {
			st.Seq = binary.BigEndian.Uint64(v)
		}
		return tx.Bucket(bktChans).ForEachBucket(func(k []byte) error {
			ch, err := loadChannel(tx.Bucket(bktChans).Bucket(k), string(k))
			if err != nil {
				return err
			}
			st.Channels = append(st.Channels, ch)
			return nil
		})
	})
	if err != nil {
		var ce *CorruptError
		if !errors.As(err, &ce) {
			err = &CorruptError{Path: d.path, Err: err}
		}
	}
	return st, err
}

// loadChannel reads one channel bucket (copies: bbolt's values live only
// as long as the transaction).
func loadChannel(b *bolt.Bucket, uri string) (Channel, error) {
	ch := Channel{URI: uri, Meta: bytes.Clone(b.Get(keyMeta)), State: bytes.Clone(b.Get(keySnap))}
	if v := b.Get(keySnapSeq); len(v) == 8 {
		ch.SnapSeq = binary.BigEndian.Uint64(v)
	}
	lb := b.Bucket(bktLog)
	if lb == nil {
		return ch, nil
	}
	err := lb.ForEach(func(_, v []byte) error {
		for len(v) > 0 {
			n, k := binary.Uvarint(v)
			if k <= 0 || uint64(len(v)-k) < n {
				return fmt.Errorf("channel %.200s: damaged log record", uri)
			}
			ch.Log = append(ch.Log, bytes.Clone(v[k:k+int(n)]))
			v = v[k+int(n):]
		}
		return nil
	})
	return ch, err
}

// Resource returns a stored resource's content type and content.
func (d *DB) Resource(uri string) (contentType string, data []byte, ok bool, err error) {
	err = d.bolt.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktRes).Get(resKey(uri))
		if v == nil {
			return nil
		}
		i := bytes.IndexByte(v, 0)
		if i < 0 {
			return fmt.Errorf("resource %.200s: damaged record", uri)
		}
		contentType, data, ok = string(v[:i]), bytes.Clone(v[i+1:]), true
		return nil
	})
	return contentType, data, ok, err
}

// ResourceSize returns a stored resource's content type and size.
func (d *DB) ResourceSize(uri string) (contentType string, size int64, ok bool) {
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bktRes).Get(resKey(uri))
		if i := bytes.IndexByte(v, 0); i >= 0 {
			contentType, size, ok = string(v[:i]), int64(len(v)-i-1), true
		}
		return nil
	})
	return contentType, size, ok
}

// resKey is a resource's key: its URI, or a hash of a very long one.
func resKey(uri string) []byte {
	if len(uri) <= 1000 && !strings.HasPrefix(uri, "#") {
		return []byte(uri)
	}
	sum := sha256.Sum256([]byte(uri))
	return fmt.Appendf(nil, "#%x", sum)
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
