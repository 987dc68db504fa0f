// Package textbuf is an append-only text shared by successive immutable
// versions of a streamed text (a response part on the host, a block in the
// client's reducer). Appending to the newest version costs amortised
// O(len(delta)) instead of O(len(text)), and every older version keeps
// seeing exactly its own text.
package textbuf

import (
	"sync/atomic"
	"unsafe"
)

// buffer is the shared storage. claimed is the number of bytes some Text
// covers; bytes below it are never written again, so every Text reads its
// prefix without copying, and only the Text whose length equals claimed may
// extend the buffer in place (a compare-and-swap arbitrates between
// versions that branch from the same parent, so sibling states built
// concurrently are safe).
type buffer struct {
	claimed atomic.Int64
	b       []byte // len(b) == cap(b); bytes at and above claimed are free
}

// minCap is the first allocation for a text.
const minCap = 64

// Text is one immutable view of a text: the first n bytes of a shared
// buffer. The zero value is the empty text.
type Text struct {
	buf *buffer
	n   int
}

// New returns a Text holding a copy of s, with room to grow.
func New(s string) Text { return Text{}.Append(s) }

// Of returns a Text viewing s without copying it. The view's buffer is
// exactly s and counts as full, so nothing is ever written into s: the
// first Append copies into a new buffer (as New would have), later ones
// append in place. Use it for text that will most likely never grow (a
// finished turn's parts, a snapshot) to keep one copy instead of two.
func Of(s string) Text {
	if s == "" {
		return Text{}
	}
	b := &buffer{b: unsafe.Slice(unsafe.StringData(s), len(s))}
	b.claimed.Store(int64(len(s)))
	return Text{buf: b, n: len(s)}
}

// String returns the text without copying; its bytes are never modified.
func (t Text) String() string {
	if t.n == 0 {
		return ""
	}
	return unsafe.String(&t.buf.b[0], t.n)
}

// Len returns the text's length in bytes.
func (t Text) Len() int { return t.n }

// Append returns a Text holding t's text followed by s; t is unchanged. It
// writes in place when t is the newest view of its buffer and there is
// room, otherwise it copies into a new buffer twice the needed size.
func (t Text) Append(s string) Text {
	if s == "" {
		return t
	}
	need := t.n + len(s)
	if t.buf != nil && need <= len(t.buf.b) &&
		t.buf.claimed.CompareAndSwap(int64(t.n), int64(need)) {
		copy(t.buf.b[t.n:need], s)
		return Text{buf: t.buf, n: need}
	}
	nb := &buffer{b: make([]byte, grow(need))}
	if t.n > 0 {
		copy(nb.b, t.buf.b[:t.n])
	}
	copy(nb.b[t.n:need], s)
	nb.claimed.Store(int64(need))
	return Text{buf: nb, n: need}
}

// Views reports whether s is exactly this Text's string (same bytes in the
// same memory), i.e. s was produced by t.String() and not reassigned since.
func (t Text) Views(s string) bool {
	return t.n == len(s) && t.n > 0 && unsafe.StringData(s) == &t.buf.b[0]
}

// bigGrowth is the size above which a buffer grows by a quarter instead of
// doubling: appends stay amortised O(len(delta)) while a long finished text
// wastes at most 25% of its size (a 32 MB reply: ≤ 40 MB, not up to 64).
const bigGrowth = 4 << 20

// grow returns the capacity of a new buffer for need bytes.
func grow(need int) int {
	if need > bigGrowth {
		return need + need/4
	}
	return max(2*need, minCap)
}
