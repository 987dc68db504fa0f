package render

import (
	"strings"
	"unicode/utf8"
)

// Lazy head of a long markdown text.
//
// The completed blocks before PlainAfter are rendered with glamour and
// chroma, which costs a few microseconds per byte. A long reply used to
// have all of them rendered as they completed (and all again after a
// resize), although the window shows the last few while it streams. Once
// those blocks hold lazyHeadBytes of source, they are grouped into runs of
// about groupBytes (chunkGroup) that become pages ([Page]): a group is
// rendered, block by block through the block cache, only when the window
// reaches it. Grouping is width-independent and a group only grows while
// it is the last one, so a resize renders only the groups then shown.

// lazyHeadBytes is the source size of completed blocks from which they are
// laid out as pages of groups (shorter texts render whole, as before).
const lazyHeadBytes = 16 << 10

// groupBytes is the source size at which a group of blocks is closed.
const groupBytes = 4 << 10

// chunkGroup is a run of consecutive completed blocks of one text: chunks
// [from, next group's from) of its mdState.
type chunkGroup struct {
	id   uint64
	from int
}

// groupRef is a group and the chunks a layout covers (only the last group
// of a streaming text grows).
type groupRef struct {
	st        *mdState
	id        uint64
	from, to  int
	separated bool // a blank line before its first line (not the first group)
}

// lazyHead reports whether the completed blocks of st are laid out as
// groups.
func (st *mdState) lazyHead() bool {
	n := len(st.chunks)
	return n > 0 && st.chunks[n-1].sp.end-st.chunks[0].sp.start >= lazyHeadBytes
}

// groupRefs brings st's groups up to date with its chunks and returns them.
func (st *mdState) groupRefs(e *markdownEngine) []groupRef {
	for i := st.nGrouped; i < len(st.chunks); i++ {
		n := len(st.groups)
		if n == 0 || st.chunks[i-1].sp.end-st.chunks[st.groups[n-1].from].sp.start >= groupBytes {
			e.pageIDs++
			st.groups = append(st.groups, chunkGroup{id: e.pageIDs, from: i})
		}
	}
	st.nGrouped = len(st.chunks)
	refs := make([]groupRef, len(st.groups))
	for i, g := range st.groups {
		to := len(st.chunks)
		if i+1 < len(st.groups) {
			to = st.groups[i+1].from
		}
		refs[i] = groupRef{st: st, id: g.id, from: g.from, to: to, separated: i > 0}
	}
	return refs
}

// groupLines renders the blocks of a group at width, blank-separated as
// syncWidth joins them (the renderer's mutex is held).
func (e *markdownEngine) groupLines(g *Page, width int) []string {
	st := g.st
	var out []string
	for i := g.from; i < g.to; i++ {
		c := st.chunks[i]
		l := e.chunkLines(st.text[c.sp.start:c.sp.end], c.hash, width)
		if len(l) == 0 {
			continue
		}
		if len(out) > 0 || g.separated {
			out = append(out, "")
		}
		out = append(out, l...)
	}
	return out
}

// groupSource is the source text a group page covers.
func (p *Page) groupSource() string {
	if p.to <= p.from {
		return ""
	}
	return p.st.text[p.st.chunks[p.from].sp.start:p.st.chunks[p.to-1].sp.end]
}

// groupContains is Contains for a group page.
func (p *Page) groupContains(lq string) bool {
	return containsFold(p.groupSource(), lq)
}

// containsFold reports whether src contains lq (lower case), ignoring case.
func containsFold(src, lq string) bool {
	if isPlainASCII(lq) && utf8.ValidString(lq) {
		return indexFoldASCII(src, lq) >= 0
	}
	return strings.Contains(strings.ToLower(src), lq)
}
