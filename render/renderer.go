package render

import (
	"hash/maphash"
	"sync"
)

// Default limits of a Renderer; see [WithCacheBytes], [WithPageCacheBytes]
// and [WithMaxStreams].
const (
	DefaultCacheBytes     = 64 << 20
	DefaultPageCacheBytes = 4 << 20
	DefaultMaxStreams     = 4096
)

// Renderer renders messages and blocks. It holds the styles and every cache
// (rendered markdown blocks keyed by content hash, width and style; the
// incremental state of each markdown text). It is safe for concurrent use;
// calls are serialised.
type Renderer struct {
	mu       sync.Mutex
	styles   Styles
	md       *markdownEngine
	msgs     map[string]*msgEntry
	msgBytes int // renderedBytes of msgs
	blocks   map[BlockKey]*blockEntry
	bodies   map[bodyKey]*blockEntry // tool call bodies (see toolBody)
	times    map[BlockKey]blockTimes
	pages    *lineCache[pageKey] // laid-out pages of long texts (see Page)

	pageLayouts int // pages laid out (see PageLayouts)
}

// Option configures a Renderer.
type Option func(*config)

type config struct {
	cacheBytes int
	pageBytes  int
	maxStreams int
}

// WithCacheBytes bounds the memory of the rendered-block cache (default
// [DefaultCacheBytes]); least recently used blocks are evicted first.
func WithCacheBytes(n int) Option { return func(c *config) { c.cacheBytes = max(n, 1<<16) } }

// WithPageCacheBytes bounds the memory of the laid-out pages of long texts
// (default [DefaultPageCacheBytes]); see [Page].
func WithPageCacheBytes(n int) Option { return func(c *config) { c.pageBytes = max(n, 1<<16) } }

// WithMaxStreams bounds how many markdown texts keep incremental state
// (default [DefaultMaxStreams]); the least recently rendered are forgotten
// and, if asked for again, rebuilt from the block cache.
func WithMaxStreams(n int) Option { return func(c *config) { c.maxStreams = max(n, 16) } }

// New returns a Renderer drawing with styles.
func New(styles Styles, opts ...Option) *Renderer {
	c := config{cacheBytes: DefaultCacheBytes, pageBytes: DefaultPageCacheBytes, maxStreams: DefaultMaxStreams}
	for _, o := range opts {
		o(&c)
	}
	r := &Renderer{
		styles: styles,
		msgs:   make(map[string]*msgEntry),
		blocks: make(map[BlockKey]*blockEntry),
		bodies: make(map[bodyKey]*blockEntry),
		times:  make(map[BlockKey]blockTimes),
		pages:  newLineCache[pageKey](c.pageBytes),
	}
	r.md = newMarkdownEngine(&r.styles, c.cacheBytes, c.maxStreams)
	return r
}

// Styles returns the styles in use.
func (r *Renderer) Styles() Styles {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.styles
}

// SetStyles switches styles (e.g. after tea.BackgroundColorMsg). Cached
// blocks of the old style stay in the cache until evicted, so switching back
// is cheap.
func (r *Renderer) SetStyles(s Styles) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.Name == r.styles.Name {
		// Same name, possibly new content: the name-keyed caches are stale.
		r.md.cache = newLineCache[chunkKey](r.md.cache.max)
		r.pages = newLineCache[pageKey](r.pages.max)
		r.md.states = make(map[string]*mdState)
	}
	r.styles = s
	r.md.resetStyles()
	r.msgs, r.msgBytes = make(map[string]*msgEntry), 0
	r.blocks = make(map[BlockKey]*blockEntry)
	r.bodies = make(map[bodyKey]*blockEntry)
}

// Markdown renders the markdown text of one block at width and returns its
// lines (each starting with the two-column gutter). id identifies the text
// across calls: while done is false, text may only grow, and only the open
// tail is re-rendered; completed top-level blocks come from the cache.
// When done is true the result equals rendering the whole text at once.
func (r *Renderer) Markdown(id, text string, done bool, width int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.md.Lines(id, text, done, width)
}

func hashString(seed maphash.Seed, s string) uint64 { return maphash.String(seed, s) }
