package reducer

import (
	"sync/atomic"
	"unsafe"
)

// textBuf is an append-only byte buffer shared by successive versions of a
// streaming block. claimed is the number of bytes some textRef has written;
// bytes below it are never written again, so every textRef may read its own
// prefix without copying, and only the ref whose length equals claimed may
// extend the buffer in place (a compare-and-swap arbitrates between states
// that branch from the same parent).
type textBuf struct {
	claimed atomic.Int64
	b       []byte // len(b) == cap(b); bytes at and above claimed are free
}

// textRef is one immutable view of a text: the first n bytes of buf.
type textRef struct {
	buf *textBuf
	n   int
}

// minTextCap is the first allocation for a streaming text.
const minTextCap = 64

// newText returns a ref holding s.
func newText(s string) textRef {
	return textRef{}.append(s)
}

// String returns the text without copying. The bytes are never modified.
func (t textRef) String() string {
	if t.n == 0 {
		return ""
	}
	return unsafe.String(&t.buf.b[0], t.n)
}

// Len returns the text length in bytes.
func (t textRef) Len() int { return t.n }

// append returns a ref holding t's text followed by s. It writes in place
// when t is the newest view of its buffer and there is room, otherwise it
// copies into a buffer twice the needed size (amortised O(len(s))).
func (t textRef) append(s string) textRef {
	if s == "" {
		return t
	}
	need := t.n + len(s)
	if t.buf != nil && need <= len(t.buf.b) &&
		t.buf.claimed.CompareAndSwap(int64(t.n), int64(need)) {
		copy(t.buf.b[t.n:need], s)
		return textRef{buf: t.buf, n: need}
	}
	c := 2 * need
	if c < minTextCap {
		c = minTextCap
	}
	nb := &textBuf{b: make([]byte, c)}
	if t.n > 0 {
		copy(nb.b, t.buf.b[:t.n])
	}
	copy(nb.b[t.n:need], s)
	nb.claimed.Store(int64(need))
	return textRef{buf: nb, n: need}
}
