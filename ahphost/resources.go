package ahphost

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// DefaultResourceBudget bounds the bytes the resource store keeps; the
// oldest resources are evicted beyond it.
const DefaultResourceBudget = 256 << 20

// resourceStore keeps contents served by resourceRead, keyed by URI, in
// insertion order within a byte budget of memory; the oldest are evicted
// beyond it to files (spill), and kept in memory only when that fails, so
// a stored content is never lost. It requires h.mu.
type resourceStore struct {
	items map[string]resource
	order []string // URIs held in memory, oldest first
	bytes int64    // bytes held in memory
	spill spill
	// spillErr reports a failed eviction (logged by the store).
	spillErr func(uri string, err error)
	// db, when the host is durable, holds every resource: eviction drops
	// a resource's bytes from memory once a commit wrote them (gen ≤
	// stored), and reads of evicted ones come from it (no spill files).
	db     *durable.DB
	gen    uint64 // the generation of the pending batch
	stored uint64 // 1 + the last generation committed (0: none)
	puts   uint64 // resources stored so far (their ver)
}

// resource is one stored content: in memory (data), or in a file (path)
// once evicted.
type resource struct {
	data        []byte
	path        string
	size        int64
	contentType string
	// gen is the batch generation that stores it (durable hosts).
	gen uint64
	// ver tells this value from others stored under the same URI (0: read
	// from the database; rescache.go).
	ver uint64
	// uri and db locate an evicted resource of a durable host.
	uri string
	db  *durable.DB
}

// put stores data under uri (replacing an older value) and evicts the
// oldest entries to disk while the store is over budget.
func (r *resourceStore) put(uri, contentType string, data []byte, budget int64) {
	if r.items == nil {
		r.items = make(map[string]resource)
	}
	if old, ok := r.items[uri]; ok {
		if old.path != "" {
			r.spill.forget(old.path, old.size)
		} else {
			r.bytes -= int64(len(old.data))
			r.order = removeURI(r.order, uri)
		}
	}
	r.order = append(r.order, uri)
	r.puts++
	r.items[uri] = resource{data: data, size: int64(len(data)), contentType: contentType, gen: r.gen, ver: r.puts}
	r.bytes += int64(len(data))
	r.evict(budget)
}

// evict moves the oldest resources out of memory while the store is over
// budget: to the database when it holds them already, else to spill files.
func (r *resourceStore) evict(budget int64) {
	for r.bytes > budget && len(r.order) > 1 {
		if r.db != nil {
			oldest := r.order[0]
			it := r.items[oldest]
			if it.gen >= r.stored {
				return // not committed yet: after the commit (committed)
			}
			r.order = r.order[1:]
			r.bytes -= int64(len(it.data))
			r.items[oldest] = resource{size: it.size, contentType: it.contentType, uri: oldest, db: r.db}
			continue
		}
		oldest := r.order[0]
		it := r.items[oldest]
		path, err := r.spill.write(oldest, it.data)
		if err != nil {
			if r.spillErr != nil {
				r.spillErr(oldest, err)
			}
			return // kept in memory, over budget: never lost
		}
		r.order = r.order[1:]
		r.bytes -= int64(len(it.data))
		r.items[oldest] = resource{path: path, size: it.size, contentType: it.contentType}
	}
}

// committed records that the batch of generation gen was written and
// evicts what it allows.
func (r *resourceStore) committed(gen uint64, budget int64) {
	r.stored = max(r.stored, gen+1)
	r.evict(budget)
}

// isStored reports whether a durable host's database holds it already: a
// commit wrote the batch that stores it, or it was read from the
// database (false for a host that is not durable).
func (r *resourceStore) isStored(it resource) bool {
	return r.db != nil && (it.gen < r.stored || it.db != nil)
}

// removeURI returns order without uri.
func removeURI(order []string, uri string) []string {
	for i, u := range order {
		if u == uri {
			return append(order[:i:i], order[i+1:]...)
		}
	}
	return order
}

// get returns the resource at uri.
func (r *resourceStore) get(uri string) (resource, bool) {
	it, ok := r.items[uri]
	if !ok && r.db != nil {
		if ct, size, found := r.db.ResourceSize(uri); found {
			return resource{size: size, contentType: ct, uri: uri, db: r.db}, true
		}
	}
	return it, ok
}

// load returns a resource's content, from its file once evicted. It does
// not need h.mu (files are written once and removed only at Close).
func (it resource) load() ([]byte, error) {
	if it.db != nil {
		_, b, ok, err := it.db.Resource(it.uri)
		if err != nil || !ok {
			return nil, fmt.Errorf("read stored resource: %w", errors.Join(err, errors.New("not in the state database")))
		}
		return b, nil
	}
	if it.path == "" {
		return it.data, nil
	}
	b, err := os.ReadFile(it.path)
	if err != nil {
		return nil, fmt.Errorf("read evicted resource: %w", err)
	}
	return b, nil
}

// putResource stores a resource for resourceRead.
func (s *store) putResource(uri, contentType string, data []byte) {
	r := &s.ext.resources
	if r.spillErr == nil {
		r.spill.parent, r.spill.limit = s.h.opts.StateDir, s.h.opts.SpillBytes
		r.spillErr = func(uri string, err error) {
			s.h.log.Error("cannot evict a resource to disk; kept in memory over the budget", "uri", truncate(uri, 200), "err", err)
		}
	}
	if p := s.persist; p != nil {
		r.db = p.db
		s.persistResource(uri, contentType, data)
	}
	r.put(uri, contentType, data, s.resourceBudget())
}

func init() {
	handlers[ahpwire.MethodResourceRead] = withParams((*conn).resourceRead)
}

// resourceRead answers a resourceRead: the stored content, as UTF-8 text
// when it is valid UTF-8 and the client did not ask for base64, else as
// base64. Unknown URIs are NotFound; only the root channel is accepted.
// A result too large for the client becomes a MessageTooLarge error in the
// writer, like any other response; the result is built there (deferred).
func (c *conn) resourceRead(p *ahpwire.ResourceReadParams) (any, func(), *rpcError) {
	switch {
	case p.Channel != "" && p.Channel != ahpwire.RootURI:
		return nil, nil, errInvalidParams("resourceRead must target " + ahpwire.RootURI)
	case p.URI == "":
		return nil, nil, errInvalidParams("uri is required")
	case p.Encoding != "" && p.Encoding != ahpwire.EncodingBase64 && p.Encoding != ahpwire.EncodingUTF8:
		return nil, nil, errInvalidParams("encoding must be base64 or utf-8")
	}
	it, ok := c.h.st.ext.resources.get(p.URI)
	if !ok {
		return nil, nil, &rpcError{code: ahpwire.CodeNotFound, msg: "resource not found"}
	}
	// The answer is built by the connection's writer when its turn comes
	// (it.data is immutable: put replaces, never modifies), like a
	// snapshot: a peer that sends many reads and never reads the answers
	// holds a small queued entry per read, not a copy of the content each
	// (120 such peers reading a 0.9 MB resource 100 times each took the
	// host to 1.4 GiB). Builds share the host-wide build slots.
	// The encoded answer is shared by the clients that read it (rescache.go).
	b64 := p.Encoding == ahpwire.EncodingBase64
	enc, key := &c.h.encoded, encodedKey{uri: p.URI, b64: b64, ver: it.ver}
	_, kept := enc.get(key) // a kept answer needs none of the build slots
	return &deferred{light: kept, stored: c.h.st.ext.resources.isStored(it), build: func(limit int64) (any, error) {
		if n := encodedSize(it, b64); n > limit {
			return nil, &tooLargeError{size: n, limit: limit}
		}
		if b, ok := enc.get(key); ok {
			return encodedResult(b), nil
		}
		data, err := it.load() // evicted ones from their file, outside h.mu
		if err != nil {
			return nil, err
		}
		it.data = data
		b, err := json.Marshal(encodeResource(it, b64))
		if err != nil {
			return nil, fmt.Errorf("encode resource: %w", err)
		}
		enc.put(key, b)
		return encodedResult(b), nil
	}}, nil, nil
}

// encodeResource is the resourceRead result for it: UTF-8 text when the
// content is valid UTF-8 of a text type and base64 was not asked for,
// else base64.
func encodeResource(it resource, b64 bool) ahpwire.ResourceReadResult {
	res := ahpwire.ResourceReadResult{ContentType: it.contentType}
	if !b64 && utf8.Valid(it.data) && !isBinaryType(it.contentType) {
		res.Data, res.Encoding = string(it.data), ahpwire.EncodingUTF8
	} else {
		res.Data, res.Encoding = base64.StdEncoding.EncodeToString(it.data), ahpwire.EncodingBase64
	}
	return res
}

// encodedSize is a lower bound of the encoded answer's size, to refuse a
// result too large for the peer before building it.
func encodedSize(it resource, b64 bool) int64 {
	if b64 || isBinaryType(it.contentType) {
		return int64(base64.StdEncoding.EncodedLen(int(it.size)))
	}
	return it.size
}

// isBinaryType reports content types that are always sent as base64.
func isBinaryType(ct string) bool {
	return strings.HasPrefix(ct, "image/") || strings.HasPrefix(ct, "audio/") ||
		strings.HasPrefix(ct, "video/") || ct == "application/octet-stream"
}
