package durable

import (
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// opKind is what one batch operation does.
type opKind uint8

const (
	opNone opKind = iota // superseded by a later snapshot or delete
	opLog
	opSnap
	opDelete
	opPutRes
	opDelRes
	opDelResPrefix
)

// op is one write of a Batch.
type op struct {
	kind opKind
	key  string   // channel URI or resource URI
	seq  uint64   // first serverSeq (log), snapshot serverSeq (snap)
	data []byte   // state (snap), content (resource)
	envs [][]byte // envelopes (log), joined by Commit
	meta []byte   // channel meta (snap), content type (resource)
}

// Batch collects the writes of one commit, in order. It is not safe for
// concurrent use; the byte slices handed to it must not change until
// Commit returns.
type Batch struct {
	// Seq is the serverSeq the batch brings the database to (meta/seq).
	Seq   uint64
	ops   []op
	open  map[string]int // channel → index of its log op still taking envelopes
	bytes int64
}

// Append adds one action envelope of channel, stamped seq, to the log.
// Envelopes of one channel appended in a row share one value.
func (b *Batch) Append(channel string, seq uint64, env []byte) {
	if b.open == nil {
		b.open = make(map[string]int)
	}
	i, ok := b.open[channel]
	if !ok {
		b.ops = append(b.ops, op{kind: opLog, key: channel, seq: seq})
		i = len(b.ops) - 1
		b.open[channel] = i
	}
	o := &b.ops[i]
	o.envs = append(o.envs, env) // joined by Commit, outside the host's lock
	b.bytes += int64(len(env)) + 2
}

// Snapshot replaces channel's stored state with state (at serverSeq seq)
// and its meta, and drops its log: the envelopes appended so far in this
// batch are not written.
func (b *Batch) Snapshot(channel string, seq uint64, meta, state []byte) {
	b.supersede(channel)
	b.ops = append(b.ops, op{kind: opSnap, key: channel, seq: seq, data: state, meta: meta})
	b.bytes += int64(len(state) + len(meta))
}

// Delete removes channel (state, meta and log).
func (b *Batch) Delete(channel string) {
	b.supersede(channel)
	b.ops = append(b.ops, op{kind: opDelete, key: channel})
}

// supersede drops the batch's earlier writes of channel.
func (b *Batch) supersede(channel string) {
	for i := range b.ops {
		if o := &b.ops[i]; o.key == channel && (o.kind == opLog || o.kind == opSnap) {
			b.bytes -= int64(len(o.data) + len(o.meta))
			for _, e := range o.envs {
				b.bytes -= int64(len(e)) + 2
			}
			*o = op{}
		}
	}
	delete(b.open, channel)
}

// PutResource stores a resource's content.
func (b *Batch) PutResource(uri, contentType string, data []byte) {
	b.ops = append(b.ops, op{kind: opPutRes, key: uri, data: data, meta: []byte(contentType)})
	b.bytes += int64(len(data))
}

// DeleteResource removes a resource.
func (b *Batch) DeleteResource(uri string) {
	b.ops = append(b.ops, op{kind: opDelRes, key: uri})
}

// DeleteResources removes every resource whose URI starts with prefix.
func (b *Batch) DeleteResources(prefix string) {
	b.ops = append(b.ops, op{kind: opDelResPrefix, key: prefix})
}

// Empty reports whether the batch writes nothing but meta/seq.
func (b *Batch) Empty() bool { return len(b.ops) == 0 }

// Bytes is about how many bytes the batch writes.
func (b *Batch) Bytes() int64 { return b.bytes }

// Channels returns the channels the batch writes (once each).
func (b *Batch) Channels() []string {
	seen := make(map[string]bool)
	var out []string
	for _, o := range b.ops {
		if (o.kind == opLog || o.kind == opSnap) && !seen[o.key] {
			seen[o.key] = true
			out = append(out, o.key)
		}
	}
	return out
}

// Resources returns the resources the batch stores, with their content
// types and contents (to queue them again after a failed commit).
func (b *Batch) Resources(fn func(uri, contentType string, data []byte)) {
	for _, o := range b.ops {
		if o.kind == opPutRes {
			fn(o.key, string(o.meta), o.data)
		}
	}
}

// Commit writes b in one transaction, synced to disk before it returns.
// On error nothing of b is written.
func (d *DB) Commit(b *Batch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("state database: %v", r)
		}
	}()
	err = d.bolt.Update(func(tx *bolt.Tx) error {
		chans := tx.Bucket(bktChans)
		rb := resBuckets{flat: tx.Bucket(bktRes), own: tx.Bucket(bktResOwn), types: tx.Bucket(bktResType)}
		for i := range b.ops {
			if err := applyOp(chans, rb, &b.ops[i]); err != nil {
				return err
			}
		}
		m := tx.Bucket(bktMeta)
		if cur := m.Get(keySeq); len(cur) != 8 || binary.BigEndian.Uint64(cur) < b.Seq {
			return m.Put(keySeq, u64(b.Seq))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("state database commit: %w", err)
	}
	return nil
}

// logChunk is the most bytes of one log value: a longer record is split
// into values keyed by its serverSeq and a chunk number (logKey). A B+tree
// leaf holds at least two values, and a commit rewrites the leaf it
// appends to whole: with records of a streamed reply's text (hundreds of
// KB) that was up to three earlier records per commit. About a page: a
// commit appending one small record wrote 65 KB with 16 KiB chunks, 40 KB
// with these (of which the B+tree's path to the record is most).
const logChunk = 4000

// logKey is the key of chunk i of the log record of serverSeq seq: seq
// (8 bytes, big endian), then for i > 0 the chunk number (4 bytes), so
// that the chunks sort in order before the next record.
func logKey(seq uint64, i int) []byte {
	k := make([]byte, 8, 12)
	binary.BigEndian.PutUint64(k, seq)
	if i > 0 {
		k = binary.BigEndian.AppendUint32(k, uint32(i))
	}
	return k
}

// putLog writes one log record, split into chunks of at most logChunk.
func putLog(lb *bolt.Bucket, seq uint64, v []byte) error {
	for i := 0; i == 0 || len(v) > 0; i++ {
		n := min(len(v), logChunk)
		if err := lb.Put(logKey(seq, i), v[:n]); err != nil {
			return err
		}
		v = v[n:]
	}
	return nil
}

// joinEnvs is a log record: each envelope after its length (uvarint).
func joinEnvs(envs [][]byte) []byte {
	n := 0
	for _, e := range envs {
		n += len(e) + binary.MaxVarintLen32
	}
	v := make([]byte, 0, n)
	for _, e := range envs {
		v = binary.AppendUvarint(v, uint64(len(e)))
		v = append(v, e...)
	}
	return v
}

// applyOp writes one operation.
func applyOp(chans *bolt.Bucket, rb resBuckets, o *op) error {
	switch o.kind {
	case opLog:
		cb, err := chans.CreateBucketIfNotExists([]byte(o.key))
		if err != nil {
			return fmt.Errorf("channel %.200s: %w", o.key, err)
		}
		lb, err := cb.CreateBucketIfNotExists(bktLog)
		if err != nil {
			return err
		}
		lb.FillPercent = 1 // appended to at its end only
		return putLog(lb, o.seq, joinEnvs(o.envs))
	case opSnap:
		cb, err := chans.CreateBucketIfNotExists([]byte(o.key))
		if err != nil {
			return fmt.Errorf("channel %.200s: %w", o.key, err)
		}
		if err := cb.DeleteBucket(bktLog); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return err
		}
		if err := cb.Put(keyMeta, o.meta); err != nil {
			return err
		}
		if err := cb.Delete(keySnap); err != nil { // format 1's place
			return err
		}
		sb, err := cb.CreateBucketIfNotExists(bktSnap)
		if err != nil {
			return err
		}
		if err := sb.Put(keyState, o.data); err != nil {
			return err
		}
		return cb.Put(keySnapSeq, u64(o.seq))
	case opDelete:
		if err := chans.DeleteBucket([]byte(o.key)); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
			return err
		}
	case opPutRes:
		return putResource(rb, o.key, string(o.meta), o.data)
	case opDelRes:
		return deleteResource(rb, o.key)
	case opDelResPrefix:
		return deleteResources(rb, o.key)
	}
	return nil
}
