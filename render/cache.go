package render

import "container/list"

// chunkKey identifies one rendered markdown block: its content (hash and
// length), the width and style it was rendered for, and whether code was
// highlighted.
type chunkKey struct {
	hash  uint64
	size  int
	width int
	style string
	hl    bool
}

type lruEntry[K comparable] struct {
	key   K
	lines []string
	bytes int
}

// lineCache is a least-recently-used cache of rendered blocks bounded by the
// total size of the cached lines. It is not safe for concurrent use (the
// Renderer's mutex guards it).
type lineCache[K comparable] struct {
	max, used int
	ll        *list.List
	m         map[K]*list.Element
}

func newLineCache[K comparable](maxBytes int) *lineCache[K] {
	return &lineCache[K]{max: maxBytes, ll: list.New(), m: make(map[K]*list.Element)}
}

func (c *lineCache[K]) get(k K) ([]string, bool) {
	e, ok := c.m[k]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(e)
	return e.Value.(*lruEntry[K]).lines, true
}

func (c *lineCache[K]) put(k K, lines []string) {
	if e, ok := c.m[k]; ok {
		c.ll.MoveToFront(e)
		return
	}
	n := linesBytes(lines)
	c.m[k] = c.ll.PushFront(&lruEntry[K]{key: k, lines: lines, bytes: n})
	c.used += n
	for c.used > c.max && c.ll.Len() > 1 {
		last := c.ll.Back()
		ent := last.Value.(*lruEntry[K])
		c.ll.Remove(last)
		delete(c.m, ent.key)
		c.used -= ent.bytes
	}
}

func (c *lineCache[K]) len() int { return c.ll.Len() }

// bytes is the memory the cached lines take (as linesBytes counts it).
func (c *lineCache[K]) bytes() int { return c.used }

// linesBytes estimates the memory of lines: their bytes, a string header
// each and the entry's own overhead.
func linesBytes(lines []string) int {
	n := 64
	for _, l := range lines {
		n += len(l) + 16
	}
	return n
}
