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

type lruEntry struct {
	key   chunkKey
	lines []string
	bytes int
}

// lineCache is a least-recently-used cache of rendered blocks bounded by the
// total size of the cached lines. It is not safe for concurrent use (the
// Renderer's mutex guards it).
type lineCache struct {
	max, used int
	ll        *list.List
	m         map[chunkKey]*list.Element
}

func newLineCache(maxBytes int) *lineCache {
	return &lineCache{max: maxBytes, ll: list.New(), m: make(map[chunkKey]*list.Element)}
}

func (c *lineCache) get(k chunkKey) ([]string, bool) {
	e, ok := c.m[k]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(e)
	return e.Value.(*lruEntry).lines, true
}

func (c *lineCache) put(k chunkKey, lines []string) {
	if e, ok := c.m[k]; ok {
		c.ll.MoveToFront(e)
		return
	}
	n := 64
	for _, l := range lines {
		n += len(l) + 16
	}
	c.m[k] = c.ll.PushFront(&lruEntry{key: k, lines: lines, bytes: n})
	c.used += n
	for c.used > c.max && c.ll.Len() > 1 {
		last := c.ll.Back()
		ent := last.Value.(*lruEntry)
		c.ll.Remove(last)
		delete(c.m, ent.key)
		c.used -= ent.bytes
	}
}

func (c *lineCache) len() int { return c.ll.Len() }
