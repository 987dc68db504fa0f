package durable

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"os"
)

// bbolt's meta page, as version 2 of its file format lays it out (native
// byte order): a 16-byte page header, then magic, version, page size and
// flags (4 bytes each), the root bucket (16), the freelist's page, the
// high-water page id, the transaction id and the checksum (8 each), the
// checksum being FNV-1a 64 of the meta's bytes before it.
const (
	metaOff      = 16
	metaMagic    = 0xED0CDAED
	metaVersion  = 2
	metaSumStart = metaOff
	metaSumEnd   = metaOff + 56
)

// meta is what checkLength reads of one meta page.
type meta struct {
	pageSize uint32
	pgid     uint64 // the high-water mark: pages [0, pgid) are in the file
	txid     uint64
}

// readMeta reads and checks the meta page at off (ok false when it is not
// a valid one).
func readMeta(f *os.File, off int64) (m meta, ok bool) {
	b := make([]byte, metaSumEnd+8)
	if _, err := f.ReadAt(b, off); err != nil {
		return m, false
	}
	ne := binary.NativeEndian
	if ne.Uint32(b[metaOff:]) != metaMagic || ne.Uint32(b[metaOff+4:]) != metaVersion {
		return m, false
	}
	h := fnv.New64a()
	_, _ = h.Write(b[metaSumStart:metaSumEnd])
	if h.Sum64() != ne.Uint64(b[metaSumEnd:]) {
		return m, false
	}
	return meta{pageSize: ne.Uint32(b[metaOff+8:]), pgid: ne.Uint64(b[metaOff+40:]), txid: ne.Uint64(b[metaOff+48:])}, true
}

// checkLength refuses a file shorter than its newest valid meta page says
// it is (cut by a copy, a full disk or a crash of the file system): bbolt
// reads such a file through its memory map and the process dies of
// SIGBUS, in a goroutine of bbolt's own where no recover reaches. A file
// without a valid meta page is left to bbolt, which refuses it.
func checkLength(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // bbolt says why
	}
	defer f.Close()
	m0, ok0 := readMeta(f, 0)
	var m1 meta
	ok1 := false
	if ok0 && m0.pageSize >= 512 {
		m1, ok1 = readMeta(f, int64(m0.pageSize))
	}
	m := m0
	switch {
	case ok1 && (!ok0 || m1.txid > m0.txid):
		m = m1
	case !ok0:
		return nil
	}
	if need := int64(m.pgid) * int64(m.pageSize); need > size || need < 0 {
		return fmt.Errorf("file truncated: %d bytes, its last commit needs %d", size, need)
	}
	return nil
}
