package durable

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"
)

// Resources: res/<key> holds a resource's bytes and restype/<key> its
// content type (format 2). Format 1 kept both in res/<key>, the content
// type first, then a 0 byte: a key with no restype entry is read that way.

// resKey is a resource's key: its URI, or a hash of a very long one.
func resKey(uri string) []byte {
	if len(uri) <= 1000 && !strings.HasPrefix(uri, "#") {
		return []byte(uri)
	}
	sum := sha256.Sum256([]byte(uri))
	return fmt.Appendf(nil, "#%x", sum)
}

// putResource stores a resource: its bytes as given (bbolt copies them
// into its pages at commit), its content type beside them.
func putResource(res, types *bolt.Bucket, uri, contentType string, data []byte) error {
	k := resKey(uri)
	if err := res.Put(k, data); err != nil {
		return fmt.Errorf("resource %.200s: %w", uri, err)
	}
	return types.Put(k, []byte(contentType))
}

// deleteResource removes a resource.
func deleteResource(res, types *bolt.Bucket, uri string) error {
	k := resKey(uri)
	if err := res.Delete(k); err != nil {
		return err
	}
	return types.Delete(k)
}

// deleteResources removes every resource whose key starts with prefix.
func deleteResources(res, types *bolt.Bucket, prefix string) error {
	p := []byte(prefix)
	for _, b := range []*bolt.Bucket{res, types} {
		c := b.Cursor()
		for k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, _ = c.Seek(p) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
	}
	return nil
}

// getResource returns a stored resource's content type and bytes (valid
// only in the transaction of tx); ok is false when it is not stored.
func getResource(tx *bolt.Tx, uri string) (contentType string, data []byte, ok bool, err error) {
	k := resKey(uri)
	v := tx.Bucket(bktRes).Get(k)
	if v == nil {
		return "", nil, false, nil
	}
	if ct := tx.Bucket(bktResType).Get(k); ct != nil {
		return string(ct), v, true, nil
	}
	i := bytes.IndexByte(v, 0) // format 1
	if i < 0 {
		return "", nil, false, fmt.Errorf("resource %.200s: damaged record", uri)
	}
	return string(v[:i]), v[i+1:], true, nil
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
