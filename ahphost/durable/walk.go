package durable

import (
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// errLocked is walk's error when another process holds the file.
var errLocked = errors.New("locked")

// walk reads every page of every bucket of the file at path, opened
// read-only, on this goroutine: a damaged page makes bbolt panic (an
// assertion) or fault (a page past the end of the file), and here both
// are recovered into an error. A read-write open walks the same pages to
// rebuild the free list (the list is not written: NoFreelistSync), but in
// a goroutine of bbolt's own, where the same damage kills the process with
// a stack dump instead of a message.
func walk(path string) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	b, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: 200 * time.Millisecond})
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return errLocked
	case err != nil:
		return err
	}
	defer b.Close()
	return b.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(_ []byte, bk *bolt.Bucket) error { return walkBucket(bk) })
	})
}

// walkBucket visits every key of bk and of the buckets in it.
func walkBucket(bk *bolt.Bucket) error {
	c := bk.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if v != nil {
			continue
		}
		if sub := bk.Bucket(k); sub != nil {
			if err := walkBucket(sub); err != nil {
				return err
			}
		}
	}
	return nil
}
