package durable

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Resources: resc/<key>\x00<chunk> holds a resource's bytes in chunks of
// at most resChunk bytes (format 3), restype/<key> its content type.
// Format 2 kept the bytes whole in res/<key>, format 1 the content type
// too (first, then a 0 byte): a resource found there is read that way.

// resChunk is the most bytes of one chunk of a resource. A B+tree leaf
// holds at least two values and a commit rewrites the leaves it adds to
// whole: with 64 KiB pages stored whole, a commit storing a reply's next
// pages rewrote up to three earlier ones (a 3 MB reply wrote 4.1 MB).
const resChunk = 16000

// resBuckets are the buckets resources live in.
type resBuckets struct {
	flat, chunks, types *bolt.Bucket
}

// resKey is a resource's key: its URI, or a hash of a very long one.
func resKey(uri string) []byte {
	if len(uri) <= 1000 && !strings.HasPrefix(uri, "#") {
		return []byte(uri)
	}
	sum := sha256.Sum256([]byte(uri))
	return fmt.Appendf(nil, "#%x", sum)
}

// chunkKey is the key of chunk i of the resource keyed k: k, a 0 byte
// (no URI holds one, so a resource's chunks sort together, before any
// longer key k is a prefix of), then i (4 bytes, big endian).
func chunkKey(k []byte, i int) []byte {
	c := make([]byte, len(k), len(k)+5)
	copy(c, k)
	return binary.BigEndian.AppendUint32(append(c, 0), uint32(i))
}

// putResource stores a resource: its bytes as given, in chunks (bbolt
// copies them into its pages at commit), its content type beside them.
// What was stored under the URI before is replaced.
func putResource(rb resBuckets, uri, contentType string, data []byte) error {
	k := resKey(uri)
	if err := deleteResource(rb, uri); err != nil {
		return fmt.Errorf("resource %.200s: %w", uri, err)
	}
	for i := 0; i == 0 || i*resChunk < len(data); i++ {
		if err := rb.chunks.Put(chunkKey(k, i), data[i*resChunk:min(len(data), (i+1)*resChunk)]); err != nil {
			return fmt.Errorf("resource %.200s: %w", uri, err)
		}
	}
	return rb.types.Put(k, []byte(contentType))
}

// deleteResource removes a resource.
func deleteResource(rb resBuckets, uri string) error {
	k := resKey(uri)
	if err := rb.flat.Delete(k); err != nil {
		return err
	}
	p := append(k, 0)
	c := rb.chunks.Cursor()
	for ck, _ := c.Seek(p); ck != nil && bytes.HasPrefix(ck, p) && len(ck) == len(p)+4; ck, _ = c.Seek(p) {
		if err := c.Delete(); err != nil {
			return err
		}
	}
	return rb.types.Delete(k)
}

// deleteResources removes every resource whose key starts with prefix.
func deleteResources(rb resBuckets, prefix string) error {
	p := []byte(prefix)
	for _, b := range []*bolt.Bucket{rb.flat, rb.chunks, rb.types} {
		c := b.Cursor()
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Seek(p) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
	}
	return nil
}

// getResource returns a stored resource's content type and bytes (owned
// when owned is true, else valid only in the transaction of tx); ok is
// false when it is not stored. With read false only the size is found
// (data is nil, size is set).
func getResource(tx *bolt.Tx, uri string, read bool) (contentType string, data []byte, size int64, owned, ok bool, err error) {
	k := resKey(uri)
	ct := tx.Bucket(bktResType).Get(k)
	if v := tx.Bucket(bktRes).Get(k); v != nil { // formats 1 and 2
		if ct != nil {
			return string(ct), v, int64(len(v)), false, true, nil
		}
		i := bytes.IndexByte(v, 0) // format 1
		if i < 0 {
			return "", nil, 0, false, false, fmt.Errorf("resource %.200s: damaged record", uri)
		}
		return string(v[:i]), v[i+1:], int64(len(v) - i - 1), false, true, nil
	}
	if ct == nil {
		return "", nil, 0, false, false, nil
	}
	c := tx.Bucket(bktResChunks).Cursor()
	p := append(k, 0)
	n := 0
	for ck, v := c.Seek(p); ck != nil && bytes.HasPrefix(ck, p) && len(ck) == len(p)+4; ck, v = c.Next() {
		if binary.BigEndian.Uint32(ck[len(p):]) != uint32(n) {
			return "", nil, 0, false, false, fmt.Errorf("resource %.200s: chunk %d missing", uri, n)
		}
		n++
		size += int64(len(v))
		if read {
			data = append(data, v...)
		}
	}
	if n == 0 {
		return "", nil, 0, false, false, fmt.Errorf("resource %.200s: no chunks", uri)
	}
	if read && data == nil {
		data = []byte{}
	}
	return string(ct), data, size, true, true, nil
}

// Resource returns a stored resource's content type and content.
func (d *DB) Resource(uri string) (contentType string, data []byte, ok bool, err error) {
	err = d.bolt.View(func(tx *bolt.Tx) error {
		var v []byte
		var owned bool
		contentType, v, _, owned, ok, err = getResource(tx, uri, true)
		if data = v; !owned {
			data = bytes.Clone(v)
		}
		return err
	})
	return contentType, data, ok, err
}

// ResourceSize returns a stored resource's content type and size.
func (d *DB) ResourceSize(uri string) (contentType string, size int64, ok bool) {
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		contentType, _, size, _, ok, _ = getResource(tx, uri, false)
		return nil
	})
	return contentType, size, ok
}

// ResourcesUnder returns how many resources are stored under URIs that
// start with prefix and their bytes (read from the leaves' lengths, not
// the values).
func (d *DB) ResourcesUnder(prefix string) (n int, size int64) {
	p := []byte(prefix)
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bktRes).Cursor()
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			n++
			size += int64(len(v))
		}
		return nil
	})
	return n, size
}
