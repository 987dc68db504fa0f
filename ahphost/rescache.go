package ahphost

import "sync"

// Encoded resourceRead answers, shared by the clients that read the same
// resource (fan-out, issue 28).
//
// A reply past LargePartBytes streams as pages (bigstream.go), and every
// client that shows it reads each page with resourceRead as it arrives.
// Encoding a 64 KiB page as a JSON string (copy, escape, marshal) once per
// client was a third of the host's CPU with fifty clients on one reply, so
// the encoded result is kept, by URI, encoding and the resource's version,
// within encodedBytes; a client's answer is its id around those bytes.
// Resources never change in place (a put makes a new version), so a kept
// answer is never stale.

// encodedBytes bounds the kept answers (a little over 60 pages).
const encodedBytes = 4 << 20

// encodedKey names one encoding of one version of a resource.
type encodedKey struct {
	uri string
	b64 bool
	ver uint64
}

// encodedResults is the host's cache of encoded answers (safe for
// concurrent use: connections' writers build answers outside h.mu).
type encodedResults struct {
	mu    sync.Mutex
	m     map[encodedKey][]byte
	order []encodedKey // oldest first
	bytes int64
}

// get returns the kept answer for k.
func (c *encodedResults) get(k encodedKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, ok
}

// put keeps b as k's answer, dropping the oldest answers past the bound.
// An answer larger than the bound is not kept.
func (c *encodedResults) put(k encodedKey, b []byte) {
	if int64(len(b)) > encodedBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[encodedKey][]byte)
	}
	if _, ok := c.m[k]; ok {
		return
	}
	c.m[k] = b
	c.order = append(c.order, k)
	c.bytes += int64(len(b))
	for c.bytes > encodedBytes {
		old := c.order[0]
		c.order[0] = encodedKey{}
		c.order = c.order[1:]
		c.bytes -= int64(len(c.m[old]))
		delete(c.m, old)
	}
}
