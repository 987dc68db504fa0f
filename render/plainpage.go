package render

import (
	"strings"
	"unicode/utf8"
)

// Pages of a long text.
//
// The completed blocks of a markdown text that start beyond PlainAfter are
// laid out as plain text (mdplain.go), line by line: every source line is
// laid out on its own. Instead of laying the whole rest of the text out,
// those blocks are cut into pages of about pageBytes of source, which index
// the text by offsets (no copy: the text is the one the block holds, shared
// with the AHP state) and are laid out only when a page is shown, through a
// cache bounded by bytes (Renderer.pages). Cutting them is width-independent,
// so a resize lays out nothing but the pages then shown.

// pageBytes is the source size at which a page is closed.
const pageBytes = 16 << 10

// maxLineBytes caps one laid-out source line: a longer line is cut (at a
// rune boundary) into pieces laid out as separate lines, so a page never
// holds a line that is expensive to wrap.
const maxLineBytes = 64 << 10

// piece is a run of whole source lines of one block, [a, b) relative to
// its page's start; sep puts a blank line before it (a block boundary).
type piece struct {
	a, b uint32
	sep  bool
}

// plainRegion holds the pages of one text. text is the latest text seen;
// it only grows, so the pages' offsets stay valid.
type plainRegion struct {
	text  string
	pages []*plainPage
	any   bool // a piece was added: the next block starts after a blank line
	ids   *uint64
	// user marks a user message's text (userPages): lines in the user
	// text style instead of as markdown.
	user bool
}

// plainPage is a page of a plain region: pieces of consecutive blocks. Only
// the region's last page grows (pieces are appended); a [Page] handle
// remembers how many pieces it covers, so it never changes.
type plainPage struct {
	reg    *plainRegion
	id     uint64
	start  int
	pieces []piece
}

// add cuts the completed block text[sp.start:sp.end] into pieces.
func (g *plainRegion) add(text string, sp span) {
	g.text = text
	a, b := sp.start, sp.end
	for a < b && text[a] == '\n' {
		a++
	}
	for b > a && text[b-1] == '\n' {
		b--
	}
	if a == b {
		return
	}
	sep := g.any
	g.any = true
	g.cut(text, a, b, sep)
}

// cut appends the source lines [a, b) as pieces (b is a line end), the
// first with a blank line before it when sep is set.
func (g *plainRegion) cut(text string, a, b int, sep bool) {
	for a < b {
		pg := g.openPage(a)
		room := pageBytes - (a - pg.start)
		c, next := b, b // this piece is [a, c); the next starts at next
		if b-a > room {
			if nl := strings.LastIndexByte(text[a:a+room], '\n'); nl >= 0 {
				c, next = a+nl, a+nl+1
			} else if len(pg.pieces) > 0 {
				g.newPage(a) // the line does not fit: it starts a new page
				continue
			} else if nl := strings.IndexByte(text[a:b], '\n'); nl >= 0 && nl <= maxLineBytes {
				c, next = a+nl, a+nl+1 // one long line alone on its page
			} else if b-a > maxLineBytes {
				c = a + len(CutAtRune(text[a:b], maxLineBytes))
				if c == a { // no rune start at all: cut anyway
					c = a + maxLineBytes
				}
				next = c
			}
		}
		pg.pieces = append(pg.pieces, piece{a: uint32(a - pg.start), b: uint32(c - pg.start), sep: sep})
		sep = false
		a = next
	}
}

// openPage returns the page a piece starting at off goes to.
func (g *plainRegion) openPage(off int) *plainPage {
	if n := len(g.pages); n > 0 {
		pg := g.pages[n-1]
		if off-pg.start < pageBytes {
			return pg
		}
	}
	return g.newPage(off)
}

func (g *plainRegion) newPage(off int) *plainPage {
	*g.ids++
	pg := &plainPage{reg: g, id: *g.ids, start: off}
	g.pages = append(g.pages, pg)
	return pg
}

// layout lays out the first n pieces of the page at width (the whole
// width, gutter included), a blank line before each block but the first.
func (pg *plainPage) layout(e *markdownEngine, n, width int) []string {
	text := pg.reg.text
	var out []string
	for _, pc := range pg.pieces[:n] {
		if pc.sep {
			out = append(out, "")
		}
		src := text[pg.start+int(pc.a) : pg.start+int(pc.b)]
		if pg.reg.user {
			out = append(out, e.userLines(src, width)...)
		} else {
			out = append(out, e.plainLines(src, width)...)
		}
	}
	return out
}

// contains reports whether the first n pieces' source contains lq (lower
// case) ignoring case, for search.
func (pg *plainPage) contains(n int, lq string) bool {
	if n == 0 {
		return false
	}
	text := pg.reg.text
	src := text[pg.start+int(pg.pieces[0].a) : pg.start+int(pg.pieces[n-1].b)]
	if isPlainASCII(lq) && utf8.ValidString(lq) {
		return indexFoldASCII(src, lq) >= 0
	}
	return strings.Contains(strings.ToLower(src), lq)
}

// indexFoldASCII finds lq (ASCII, lower case) in s ignoring ASCII case,
// without copying s.
func indexFoldASCII(s, lq string) int {
	if lq == "" {
		return 0
	}
	first := lq[0]
	for i := 0; i+len(lq) <= len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != first {
			continue
		}
		j := 1
		for ; j < len(lq); j++ {
			d := s[i+j]
			if d >= 'A' && d <= 'Z' {
				d += 'a' - 'A'
			}
			if d != lq[j] {
				break
			}
		}
		if j == len(lq) {
			return i
		}
	}
	return -1
}
