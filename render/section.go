package render

import "strings"

// Section is a run of consecutive lines of a rendered message: either lines
// already laid out, or one page of a long text, laid out when asked for
// (see [Rendered.Sections]).
type Section struct {
	// Lines are the section's lines when Page is nil.
	Lines []string
	// Page, when not nil, lays the section's lines out on demand.
	Page *Page
}

// Page is a page of the plain layout of a long text (the part of a
// markdown text past [PlainAfter]): about 16 KiB of its source, indexed by
// offsets into the text, laid out only when Lines is called. Laid-out pages
// are kept in the Renderer's page cache, bounded by bytes
// ([WithPageCacheBytes]); a page evicted from it is laid out again when
// next asked for. A Page never changes: a streaming text's later blocks
// come in later renders.
type Page struct {
	r     *Renderer
	pg    *plainPage
	n     int // pieces covered
	width int
	style string
	focus bool

	// A group page (mdlazy.go): chunks [from, to) of st instead of pg.
	st        *mdState
	from, to  int
	gid       uint64
	separated bool

	// A markdown reference page (mdref.go) instead of pg.
	ref *refPage
}

// pageKey identifies a laid-out page in the page cache.
type pageKey struct {
	ref   string // a reference page's URI (mdref.go)
	id    uint64
	n     int
	width int
	style string
	focus bool
}

// key is the page's key in the page cache.
func (p *Page) key() pageKey {
	switch {
	case p.ref != nil:
		return pageKey{ref: p.ref.uri, id: p.ref.hash, n: len(p.ref.text), width: p.width, style: p.style, focus: p.focus}
	case p.st == nil:
		return pageKey{id: p.pg.id, n: p.n, width: p.width, style: p.style, focus: p.focus}
	}
	return pageKey{id: p.gid, n: p.to - p.from, width: p.width, style: p.style, focus: p.focus}
}

// LineCount is the page's number of lines when it is laid out (cached),
// else an estimate from its source size and width, without laying it out:
// for walks that only need to know roughly how far a page reaches (what
// content to load near the window).
func (p *Page) LineCount() int {
	p.r.mu.Lock()
	l, ok := p.r.pages.get(p.key())
	p.r.mu.Unlock()
	if ok {
		return len(l)
	}
	return p.Size()/max(1, p.width-len(gutter)) + 1
}

// Lines returns the page's lines (cached; treat them as read-only). Every
// line is at most the width it was rendered for.
func (p *Page) Lines() []string {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	k := p.key()
	if l, ok := p.r.pages.get(k); ok {
		return l
	}
	var l []string
	switch {
	case p.ref != nil:
		l = p.ref.lines(p.r.md, p.width)
	case p.st != nil:
		l = p.r.md.groupLines(p, p.width)
	default:
		l = p.pg.layout(p.r.md, p.n, p.width)
	}
	p.r.pageLayouts++
	if p.focus {
		l = p.r.markFocus(l)
	}
	p.r.pages.put(k, l)
	return l
}

// Contains reports whether the page's source text contains q, ignoring
// case (a cheap test before laying a page out to search its lines).
func (p *Page) Contains(q string) bool {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	switch {
	case p.ref != nil:
		return containsFold(p.ref.text, strings.ToLower(q))
	case p.st != nil:
		return p.groupContains(strings.ToLower(q))
	}
	return p.pg.contains(p.n, strings.ToLower(q))
}

// Size is how many bytes of source the page covers.
func (p *Page) Size() int {
	p.r.mu.Lock()
	defer p.r.mu.Unlock()
	switch {
	case p.ref != nil:
		return len(p.ref.text)
	case p.st != nil:
		return len(p.groupSource())
	}
	if p.n == 0 {
		return 0
	}
	return int(p.pg.pieces[p.n-1].b - p.pg.pieces[0].a)
}

// PageCacheBytes is the memory the page cache holds (laid-out pages of long
// texts), as its bound counts it.
func (r *Renderer) PageCacheBytes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pages.bytes()
}

// PageLayouts is how many pages were laid out so far (cache misses), for
// tests and diagnostics: showing a window of a long text lays out a few.
func (r *Renderer) PageLayouts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pageLayouts
}

// CacheBytes is the memory of the rendered-block cache (markdown blocks
// before PlainAfter), as its bound counts it.
func (r *Renderer) CacheBytes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.md.cache.bytes()
}

// textSections lays out the markdown text of a block as sections: its
// pages as Page sections, the rest as lines.
func (r *Renderer) textSections(id, text string, done bool, width int, focus bool) []Section {
	d := r.md.docAt(id, text, 0, done, width, true)
	if len(d.pages) == 0 && len(d.open) == 0 && len(d.groups) == 0 {
		lines := append(d.head[:len(d.head):len(d.head)], d.tail...)
		if d.openLead { // an open plain block with nothing complete yet
			lines = append(d.head[:len(d.head):len(d.head)], append([]string{""}, d.tail...)...)
		}
		return []Section{{Lines: lines}}
	}
	secs := make([]Section, 0, len(d.groups)+len(d.pages)+len(d.open)+4)
	pages := make([]Page, 0, len(d.groups)+len(d.pages)+len(d.open))
	if len(d.head) > 0 {
		secs = append(secs, Section{Lines: d.head})
	}
	for _, g := range d.groups {
		pages = append(pages, Page{r: r, st: g.st, from: g.from, to: g.to, gid: g.id, separated: g.separated,
			width: width, style: r.styles.Name, focus: focus})
		secs = append(secs, Section{Page: &pages[len(pages)-1]})
	}
	if d.lead {
		secs = append(secs, Section{Lines: []string{""}})
	}
	add := func(refs []pageRef) {
		for _, p := range refs {
			pages = append(pages, Page{r: r, pg: p.pg, n: p.n, width: width, style: r.styles.Name, focus: focus})
			secs = append(secs, Section{Page: &pages[len(pages)-1]})
		}
	}
	add(d.pages)
	if d.openLead {
		secs = append(secs, Section{Lines: []string{""}})
	}
	add(d.open)
	if len(d.tail) > 0 {
		secs = append(secs, Section{Lines: d.tail})
	}
	return secs
}

// userSections lays out a user text longer than PlainAfter (a pasted log)
// as pages, line by line as textBlock would lay it out whole.
func (r *Renderer) userSections(text string, width int, focus bool) []Section {
	g := &plainRegion{ids: &r.md.pageIDs, user: true, text: text}
	g.cut(text, 0, len(strings.TrimRight(text, "\n")), false)
	secs := make([]Section, len(g.pages))
	pages := make([]Page, len(g.pages))
	for i, pg := range g.pages {
		pages[i] = Page{r: r, pg: pg, n: len(pg.pieces), width: width, style: r.styles.Name, focus: focus}
		secs[i] = Section{Page: &pages[i]}
	}
	return secs
}
