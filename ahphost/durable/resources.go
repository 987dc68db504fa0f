package durable

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Resources: resc/<key>/d holds a resource's bytes, in a bucket of its own
// (format 3), restype/<key> its content type. A B+tree leaf holds at least
// two values and a commit rewrites the leaves it adds to whole: with a
// reply's 64 KiB pages side by side in one bucket, a commit storing the
// next pages rewrote up to three earlier ones (a 3 MB reply wrote 4.1 MB);
// in buckets of their own, the leaf rewritten holds only their roots.
// Format 2 kept the bytes whole in res/<key>, format 1 the content type
// too (first, then a 0 byte): a resource found there is read that way.

// resBuckets are the buckets resources live in.
type resBuckets struct {
	flat, own, types *bolt.Bucket
}

// resKey is a resource's key: its URI, or a hash of a very long one.
func resKey(uri string) []byte {
	if len(uri) <= 1000 && !strings.HasPrefix(uri, "#") {
		return []byte(uri)
	}
	sum := sha256.Sum256([]byte(uri))
	return fmt.Appendf(nil, "#%x", sum)
}

// putResource stores a resource: its bytes as given, in a bucket of its
// own (bbolt copies them into its pages at commit), its content type
// beside them. What was stored under the URI before is replaced.
func putResource(rb resBuckets, uri, contentType string, data []byte) error {
	k := resKey(uri)
	if err := deleteResource(rb, uri); err != nil {
		return fmt.Errorf("resource %.200s: %w", uri, err)
	}
	bk, err := rb.own.CreateBucket(k)
	if err != nil {
		return fmt.Errorf("resource %.200s: %w", uri, err)
	}
	if err := bk.Put(keyData, data); err != nil {
		return fmt.Errorf("resource %.200s: %w", uri, err)
	}
	return rb.types.Put(k, []byte(contentType))
}

// deleteResource removes a resource.
func deleteResource(rb resBuckets, uri string) error {
	k := resKey(uri)
	if err := rb.flat.Delete(k); err != nil {
		return err
	}
	if err := rb.own.DeleteBucket(k); err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return err
	}
	return rb.types.Delete(k)
}

// deleteResources removes every resource whose key starts with prefix.
func deleteResources(rb resBuckets, prefix string) error {
	p := []byte(prefix)
	for _, b := range []*bolt.Bucket{rb.flat, rb.types} {
		c := b.Cursor()
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Seek(p) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
	}
	c := rb.own.Cursor()
	for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Seek(p) {
		if err := rb.own.DeleteBucket(k); err != nil {
			return err
		}
	}
	return nil
}

// getResource returns a stored resource's content type and bytes (valid
// only in the transaction of tx); ok is false when it is not stored.
func getResource(tx *bolt.Tx, uri string) (contentType string, data []byte, ok bool, err error) {
	k := resKey(uri)
	ct := tx.Bucket(bktResType).Get(k)
	if v := tx.Bucket(bktRes).Get(k); v != nil { // formats 1 and 2
		if ct != nil {
			return string(ct), v, true, nil
		}
		i := bytes.IndexByte(v, 0) // format 1
		if i < 0 {
			return "", nil, false, fmt.Errorf("resource %.200s: damaged record", uri)
		}
		return string(v[:i]), v[i+1:], true, nil
	}
	if ct == nil {
		return "", nil, false, nil
	}
	bk := tx.Bucket(bktResOwn).Bucket(k)
	if bk == nil {
		return "", nil, false, fmt.Errorf("resource %.200s: its content is missing", uri)
	}
	return string(ct), bk.Get(keyData), true, nil
}

// Resource returns a stored resource's content type and content.
func (d *DB) Resource(uri string) (contentType string, data []byte, ok bool, err error) {
	err = d.bolt.View(func(tx *bolt.Tx) error {
		var v []byte
		contentType, v, ok, err = getResource(tx, uri)
		data = bytes.Clone(v)
		return err
	})
	return contentType, data, ok, err
}

// ResourceSize returns a stored resource's content type and size.
func (d *DB) ResourceSize(uri string) (contentType string, size int64, ok bool) {
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		var v []byte
		contentType, v, ok, _ = getResource(tx, uri)
		size = int64(len(v))
		return nil
	})
	return contentType, size, ok
}

// ResourcesUnder returns how many resources are stored under URIs that
// start with prefix and their bytes (the values' lengths, read without
// copying them), in every format's place.
func (d *DB) ResourcesUnder(prefix string) (n int, size int64) {
	p := []byte(prefix)
	_ = d.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bktRes).Cursor() // formats 1 and 2
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			n++
			size += int64(len(v))
		}
		own := tx.Bucket(bktResOwn)
		if own == nil {
			return nil
		}
		c = own.Cursor()
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Next() {
			if bk := own.Bucket(k); bk != nil {
				n++
				size += int64(len(bk.Get(keyData)))
			}
		}
		return nil
	})
	return n, size
}
