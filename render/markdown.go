package render

import (
	"hash/maphash"
	"strings"

	"charm.land/glamour/v2"
)

// Streaming markdown.
//
// A markdown text that is still streaming is split (splitter) into
// top-level blocks. A completed block is rendered once, with syntax
// highlighting, and cached in the Renderer's LRU keyed by content hash,
// width and style. Per text (keyed by its block id) an mdState remembers
// where the splitter stopped and the lines of its completed blocks at the
// current width and style, so a frame costs only the open tail:
//
//   - an open fenced code block is drawn by us, line by line, without
//     glamour or chroma (its complete lines are kept between frames);
//   - any other open block is rendered by glamour without highlighting,
//     in segments of about 2 KB once it grows long (mdtail.go).
//
// When the text ends (done), the tail becomes a normal completed block,
// so the finished text renders exactly as if it had been rendered whole.

// mdChunk is one completed top-level block.
type mdChunk struct {
	sp    span
	hash  uint64
	lines []string // rendered for mdState.width / mdState.style
}

// mdState is the incremental state of one markdown text.
type mdState struct {
	text   string
	at     int // offset of text in the whole it is a page of (mdref.go)
	sp     splitter
	chunks []mdChunk
	done   bool
	used   uint64

	width  int // width and style the chunk lines and joined are valid for
	style  string
	joined []string // lines of all chunks, blank-separated
	nJoin  int      // chunks included in joined

	seg   tailSegs  // the open non-fence block, see mdtail.go
	fence fenceTail // the open fenced code block, see mdtail.go
	open  openPages // the open block when it is laid out as plain text, see mdopen.go

	// plain holds the completed blocks past PlainAfter, as pages laid
	// out on demand (plainpage.go); chunks holds only those before.
	plain *plainRegion

	// groups are the chunks as pages once they are long (mdlazy.go);
	// nGrouped chunks are assigned to them.
	groups   []chunkGroup
	nGrouped int
}

// markdownEngine holds the glamour renderers, the block cache and the
// per-text states. It is guarded by the Renderer's mutex.
type markdownEngine struct {
	styles   *Styles
	seed     maphash.Seed
	cache    *lineCache[chunkKey]
	terms    map[termKey]*glamour.TermRenderer
	states   map[string]*mdState
	maxState int
	tick     uint64
	langs    map[string]bool
	pageIDs  uint64

	// Glamour renders with and without highlighting and the largest
	// input of a render without highlighting, for tests.
	hlRenders, plainRenders, maxPlainInput int
}

type termKey struct {
	width int
	hl    bool
}

const minMarkdownWidth = 12

func newMarkdownEngine(st *Styles, cacheBytes, maxStates int) *markdownEngine {
	return &markdownEngine{
		styles:   st,
		seed:     maphash.MakeSeed(),
		cache:    newLineCache[chunkKey](cacheBytes),
		terms:    make(map[termKey]*glamour.TermRenderer),
		states:   make(map[string]*mdState),
		maxState: maxStates,
		langs:    make(map[string]bool),
	}
}

// resetStyles drops the glamour renderers after a style change. Cached
// blocks stay: their keys carry the style name.
func (e *markdownEngine) resetStyles() {
	e.terms = make(map[termKey]*glamour.TermRenderer)
}

func (e *markdownEngine) known(lang string) bool {
	lang = strings.ToLower(lang)
	k, ok := e.langs[lang]
	if !ok {
		k = chromaKnows(lang)
		e.langs[lang] = k
	}
	return k
}

func (e *markdownEngine) term(width int, hl bool) (*glamour.TermRenderer, error) {
	k := termKey{width, hl}
	if t, ok := e.terms[k]; ok {
		return t, nil
	}
	cfg := e.styles.Markdown
	if !hl {
		cfg = e.styles.MarkdownPlain
	}
	t, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width),
		glamour.WithChromaFormatter(chromaFormatter))
	if err != nil {
		return nil, err
	}
	if len(e.terms) > 16 {
		e.terms = make(map[termKey]*glamour.TermRenderer)
	}
	e.terms[k] = t
	return t, nil
}

// glamourLines renders sanitised-and-prepared markdown with glamour; on a
// glamour error it falls back to wrapped plain text.
func (e *markdownEngine) glamourLines(md string, width int, hl bool) []string {
	if width < minMarkdownWidth {
		width = minMarkdownWidth
	}
	if hl {
		e.hlRenders++
	} else {
		e.plainRenders++
		e.maxPlainInput = max(e.maxPlainInput, len(md))
	}
	t, err := e.term(width, hl)
	if err == nil {
		var out string
		if out, err = t.Render(md); err == nil {
			return hangListItems(cleanRendered(out), width)
		}
	}
	return styleLines(wrapText(md, width-len(gutter)), e.styles.Code, gutter)
}

// renderSource renders one block of raw server markdown.
func (e *markdownEngine) renderSource(src string, width int, hl bool) []string {
	return e.glamourLines(prepareMarkdown(Sanitize(src), e.known), width, hl)
}

// chunkLines returns the highlighted lines of a completed block, from the
// LRU when possible.
func (e *markdownEngine) chunkLines(src string, h uint64, width int) []string {
	k := chunkKey{hash: h, size: len(src), width: width, style: e.styles.Name, hl: true}
	if l, ok := e.cache.get(k); ok {
		return l
	}
	l := e.renderSource(src, width, true)
	e.cache.put(k, l)
	return l
}

// mdDoc is the layout of one markdown text: the lines of its completed
// blocks before PlainAfter (head), the pages of those after it, and the
// open tail while it streams. Pages are laid out on demand.
type mdDoc struct {
	head  []string
	lead  bool // a blank line between head and the first page
	pages []pageRef
	tail  []string // with its leading blank line when anything precedes it
	// open are the pages of an open block laid out as plain text, after
	// a blank line when anything precedes them; tail is then its
	// incomplete last line.
	open     []pageRef
	openLead bool

	// groups, when set, replace head: the completed blocks as pages of
	// groups laid out on demand (mdlazy.go).
	groups []groupRef
}

// pageRef is a page and how many of its pieces the layout covers (only the
// last page of a streaming text grows).
type pageRef struct {
	pg *plainPage
	n  int
}

// Lines renders the markdown text of block id at width. text must only grow
// while the block streams (any other change restarts the block); done marks
// the text complete. The returned slice is the caller's. Pages past
// PlainAfter are all laid out (not cached): see doc for the lazy form.
func (e *markdownEngine) Lines(id, text string, done bool, width int) []string {
	d := e.docAt(id, text, 0, done, width, false)
	out := make([]string, 0, len(d.head)+len(d.tail)+1)
	out = append(out, d.head...)
	if d.lead {
		out = append(out, "")
	}
	for _, p := range d.pages {
		out = append(out, p.pg.layout(e, p.n, width)...)
	}
	if d.openLead {
		out = append(out, "")
	}
	for _, p := range d.open {
		out = append(out, p.pg.layout(e, p.n, width)...)
	}
	return append(out, d.tail...)
}

// doc lays out the markdown text of block id at width, except its pages.
func (e *markdownEngine) doc(id, text string, done bool, width int) mdDoc {
	return e.docAt(id, text, 0, done, width, false)
}

// docAt is doc for a text starting at offset at of a longer one (its
// blocks past PlainAfter of the whole are plain; 0 for a whole text);
// with lazy, long completed blocks come as groups laid out on demand
// (mdlazy.go) instead of head.
func (e *markdownEngine) docAt(id, text string, at int, done bool, width int, lazy bool) mdDoc {
	st := e.state(id, text, at, done)
	st.advance(e, text, done)
	var d mdDoc
	headAny := false
	if lazy && st.lazyHead() {
		d.groups, headAny = st.groupRefs(e), true
	} else {
		e.syncWidth(st, width)
		d.head, headAny = st.joined, len(st.joined) > 0
	}
	if g := st.plain; g != nil && len(g.pages) > 0 {
		d.lead = headAny && g.any
		d.pages = make([]pageRef, len(g.pages))
		for i, pg := range g.pages {
			d.pages[i] = pageRef{pg: pg, n: len(pg.pieces)}
		}
	}
	if st.done {
		return d
	}
	before := headAny || (st.plain != nil && st.plain.any)
	if sp := st.sp.tail(st.text); plainOpen(sp) {
		d.open, d.tail = e.openLines(st, sp, width)
		d.openLead = before && (len(d.open) > 0 || len(d.tail) > 0)
		return d
	}
	st.open = openPages{start: -1}
	if tail := e.tailLines(st, width); len(tail) > 0 {
		if before {
			tail = append([]string{""}, tail...)
		}
		d.tail = tail
	}
	return d
}

// state returns the mdState of id, restarting it when text is not an
// extension of what was seen.
func (e *markdownEngine) state(id, text string, at int, done bool) *mdState {
	e.tick++
	st := e.states[id]
	if st != nil && (st.at != at || len(text) < len(st.text) || text[:len(st.text)] != st.text || (st.done && len(text) != len(st.text))) {
		st = nil
	}
	if st == nil {
		if len(e.states) >= e.maxState {
			e.evictStates()
		}
		st = &mdState{at: at, fence: fenceTail{start: -1}, seg: tailSegs{start: -1}, open: openPages{start: -1}}
		e.states[id] = st
	}
	st.used = e.tick
	return st
}

// evictStates forgets the least recently used half of the states.
func (e *markdownEngine) evictStates() {
	var ticks []uint64
	for _, s := range e.states {
		ticks = append(ticks, s.used)
	}
	cut := midTick(ticks)
	for id, s := range e.states {
		if s.used <= cut {
			delete(e.states, id)
		}
	}
}

// midTick returns the tick halfway between the oldest and the newest use.
func midTick(v []uint64) uint64 {
	if len(v) == 0 {
		return 0
	}
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo + (hi-lo)/2
}

// advance feeds the new part of text to the splitter.
func (st *mdState) advance(e *markdownEngine, text string, done bool) {
	if st.done {
		return
	}
	var spans []span
	if done {
		spans = st.sp.finish(text, nil)
		st.done = true
		// The open tail's lines are no longer drawn: let them go.
		st.seg, st.fence, st.open = tailSegs{start: -1}, fenceTail{start: -1}, openPages{start: -1}
	} else {
		spans = st.sp.feed(text, nil)
	}
	st.text = text
	for _, sp := range spans {
		if st.at+sp.start >= PlainAfter || sp.end-sp.start > PlainAfter {
			if st.plain == nil {
				st.plain = &plainRegion{ids: &e.pageIDs}
			}
			st.plain.add(text, sp)
			continue
		}
		st.chunks = append(st.chunks, mdChunk{sp: sp, hash: maphash.String(e.seed, text[sp.start:sp.end])})
	}
	if st.plain != nil {
		st.plain.text = text
	}
}

// syncWidth makes the chunk lines and the joined lines valid for width and
// the current style, rendering only chunks that are not cached.
func (e *markdownEngine) syncWidth(st *mdState, width int) {
	if st.width != width || st.style != e.styles.Name {
		st.width, st.style = width, e.styles.Name
		for i := range st.chunks {
			st.chunks[i].lines = nil
		}
		st.joined, st.nJoin = nil, 0
	}
	for i := st.nJoin; i < len(st.chunks); i++ {
		c := &st.chunks[i]
		if c.lines == nil {
			c.lines = e.chunkLines(st.text[c.sp.start:c.sp.end], c.hash, width)
		}
		if len(c.lines) == 0 {
			continue
		}
		if len(st.joined) > 0 {
			st.joined = append(st.joined, "")
		}
		st.joined = append(st.joined, c.lines...)
	}
	st.nJoin = len(st.chunks)
}
