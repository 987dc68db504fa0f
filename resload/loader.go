// Package resload is the client's one lazy, cached, memory-budgeted loader
// of content references (ContentRef URIs fetched with resourceRead): tool
// inputs, file-edit contents, contentRef parts and large outputs. The UI
// asks for the URIs it is about to show; the loader starts each fetch at
// most once, keeps results in an LRU cache bounded by bytes, reports size
// and state while loading, and cancels fetches that are no longer wanted.
//
// A Loader is not safe for concurrent use: the UI's Update calls it. The
// fetch functions it returns run elsewhere (as tea.Cmds) and touch only
// the Reader.
package resload

import (
	"container/list"
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/ahptui/ahptui/internal/bytesize"
)

// Content is what a Reader returns for one URI.
type Content struct {
	Data        []byte
	ContentType string
}

// Reader fetches one URI (resourceRead over the connection).
type Reader func(ctx context.Context, uri string) (Content, error)

// Result is the outcome of one fetch, handed back to Done.
type Result struct {
	URI     string
	Content Content
	Err     error
	gen     uint64
}

// Fetch is one fetch to run off the UI goroutine; its Result goes to Done.
type Fetch func() Result

// DefaultBudget is the cache budget of New(0, …): 64 MiB of content.
const DefaultBudget = 64 << 20

// maxInflight bounds concurrent fetches; the rest wait for a later Want.
const maxInflight = 4

// Loader is the lazy, budgeted resource cache.
type Loader struct {
	read     Reader
	budget   int64
	used     int64
	lru      *list.List // of *entry, most recently used first
	entries  map[string]*entry
	inflight map[string]*pending
	failed   map[string]string
	gen      uint64
	// texts and loading are the maps handed to the renderer; they are
	// replaced (never mutated) when they change, so a frame's view stays
	// consistent.
	texts   map[string]string
	loading map[string]string
}

type entry struct {
	uri  string
	text string
	ct   string
	el   *list.Element
}

type pending struct {
	gen    uint64
	hint   int64
	cancel context.CancelFunc
}

// New returns a loader that keeps at most budget bytes (0: DefaultBudget).
func New(budget int64, read Reader) *Loader {
	if budget <= 0 {
		budget = DefaultBudget
	}
	return &Loader{read: read, budget: budget, lru: list.New(), entries: map[string]*entry{},
		inflight: map[string]*pending{}, failed: map[string]string{},
		texts: map[string]string{}, loading: map[string]string{}}
}

// Want starts fetches for the URIs that are neither cached, loading nor
// failed (at most maxInflight at a time), touching the cached ones so they
// stay. sizeHint gives each URI's advertised size (-1: unknown). Every
// in-flight fetch for a URI not in uris is cancelled: only what is visible
// is loaded.
func (l *Loader) Want(uris []string, sizeHint func(string) int64) []Fetch {
	want := make(map[string]bool, len(uris))
	var out []Fetch
	for _, u := range uris {
		want[u] = true
		if e := l.entries[u]; e != nil {
			l.lru.MoveToFront(e.el)
			continue
		}
		if _, busy := l.inflight[u]; busy || l.failed[u] != "" || len(l.inflight) >= maxInflight {
			continue
		}
		hint := int64(-1)
		if sizeHint != nil {
			hint = sizeHint(u)
		}
		l.gen++
		ctx, cancel := context.WithCancel(context.Background())
		l.inflight[u] = &pending{gen: l.gen, hint: hint, cancel: cancel}
		gen, uri, read := l.gen, u, l.read
		out = append(out, func() Result {
			defer cancel()
			c, err := read(ctx, uri)
			return Result{URI: uri, Content: c, Err: err, gen: gen}
		})
	}
	changed := len(out) > 0
	for u, p := range l.inflight {
		if !want[u] {
			p.cancel()
			delete(l.inflight, u)
			changed = true
		}
	}
	if changed {
		l.rebuildLoading()
	}
	return out
}

// Done records a fetch result: text content is cached (evicting the least
// recently used entries beyond the budget), binary content and errors are
// remembered as failures shown in place of the content. Results of
// cancelled or superseded fetches are ignored. It reports whether the view
// changed.
func (l *Loader) Done(r Result) bool {
	p, ok := l.inflight[r.URI]
	if !ok || p.gen != r.gen {
		return false
	}
	delete(l.inflight, r.URI)
	defer l.rebuildLoading()
	switch {
	case r.Err != nil:
		l.failed[r.URI] = "could not load: " + r.Err.Error()
		return true
	case !utf8.Valid(r.Content.Data):
		l.failed[r.URI] = fmt.Sprintf("binary content (%s, %s) not shown", orUnknown(r.Content.ContentType), bytesize.Format(int64(len(r.Content.Data))))
		return true
	}
	e := &entry{uri: r.URI, text: string(r.Content.Data), ct: r.Content.ContentType}
	e.el = l.lru.PushFront(e)
	l.entries[r.URI] = e
	l.used += int64(len(e.text))
	l.evict()
	l.rebuildTexts()
	return true
}

// Seed caches text for uri as if it had just been fetched, for content
// the client already holds (a long reply it streamed, now shown by
// reference): nothing is fetched and nothing flickers. A fetch in flight
// for uri is cancelled and a remembered failure forgotten. text must be
// valid UTF-8 (else nothing is cached and Seed reports false); keep no
// other reference to a larger string it is cut from, or that string
// stays in memory (pass a copy).
func (l *Loader) Seed(uri, text, contentType string) bool {
	if !utf8.ValidString(text) {
		return false
	}
	if p, ok := l.inflight[uri]; ok {
		p.cancel()
		delete(l.inflight, uri)
	}
	delete(l.failed, uri)
	if e := l.entries[uri]; e != nil {
		l.lru.Remove(e.el)
		delete(l.entries, uri)
		l.used -= int64(len(e.text))
	}
	e := &entry{uri: uri, text: text, ct: contentType}
	e.el = l.lru.PushFront(e)
	l.entries[uri] = e
	l.used += int64(len(text))
	l.evict()
	l.rebuildTexts()
	l.rebuildLoading()
	return true
}

// Forget drops what the loader holds of uri (its cached text, a fetch in
// flight, a failure): the next Want fetches it again, as for content that
// changed on the host (a watched file). Unknown URIs are ignored.
func (l *Loader) Forget(uri string) {
	_, inflight := l.inflight[uri]
	_, failed := l.failed[uri]
	e := l.entries[uri]
	if !inflight && !failed && e == nil {
		return
	}
	if p, ok := l.inflight[uri]; ok {
		p.cancel()
		delete(l.inflight, uri)
	}
	delete(l.failed, uri)
	if e != nil {
		l.lru.Remove(e.el)
		delete(l.entries, uri)
		l.used -= int64(len(e.text))
	}
	l.rebuildTexts()
	l.rebuildLoading()
}

// Retry forgets a failure so the next Want fetches the URI again.
func (l *Loader) Retry(uri string) {
	if _, ok := l.failed[uri]; ok {
		delete(l.failed, uri)
		l.rebuildLoading()
	}
}

// evict drops least recently used entries while over budget (the newest
// entry stays even when it alone exceeds the budget).
func (l *Loader) evict() {
	for l.used > l.budget && l.lru.Len() > 1 {
		e := l.lru.Remove(l.lru.Back()).(*entry)
		delete(l.entries, e.uri)
		l.used -= int64(len(e.text))
	}
}

// Texts returns the cached contents by URI (ViewOpts.Resources). The map is
// replaced, not changed, when the cache changes; treat it as read-only.
func (l *Loader) Texts() map[string]string { return l.texts }

// Loading returns a status per URI being fetched or failed ("loading
// 3.0 MB", "could not load: …") for ViewOpts.Loading; read-only.
func (l *Loader) Loading() map[string]string { return l.loading }

// Used is the number of cached bytes; Budget the limit.
func (l *Loader) Used() int64 { return l.used }

// Budget is the cache limit in bytes.
func (l *Loader) Budget() int64 { return l.budget }

// Inflight is the number of fetches running.
func (l *Loader) Inflight() int { return len(l.inflight) }

func (l *Loader) rebuildTexts() {
	m := make(map[string]string, len(l.entries))
	for u, e := range l.entries {
		m[u] = e.text
	}
	l.texts = m
}

func (l *Loader) rebuildLoading() {
	m := make(map[string]string, len(l.inflight)+len(l.failed))
	for u, p := range l.inflight {
		if p.hint >= 0 {
			m[u] = "loading " + bytesize.Format(p.hint)
		} else {
			m[u] = "loading"
		}
	}
	for u, why := range l.failed {
		m[u] = why
	}
	l.loading = m
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}
