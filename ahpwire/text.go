package ahpwire

import (
	"sync/atomic"
	"unsafe"
)

// textBuf is an append-only byte buffer shared by successive versions of a
// streamed response part. claimed is the number of bytes some version's
// Content covers; bytes below it are never written again, so every version
// reads its own prefix as a string without copying, and only the version
// whose Content ends at claimed may extend the buffer in place (a
// compare-and-swap arbitrates between versions that branch from the same
// parent, so concurrent reducers of sibling states are safe).
type textBuf struct {
	claimed atomic.Int64
	b       []byte // len(b) == cap(b); bytes at and above claimed are free
}

// minTextCap is the first allocation for a streamed text.
const minTextCap = 64

// appendText returns cur+s and the buffer that holds it. buf is the buffer
// cur may view; cur is extended in place only when it really is the newest
// view of buf (same first byte, length == claimed) and the buffer has room,
// otherwise the text is copied into a new buffer twice the needed size, so
// n appends cost amortised O(len(s)) each.
func appendText(buf *textBuf, cur, s string) (string, *textBuf) {
	if s == "" {
		return cur, buf
	}
	n := len(cur)
	need := n + len(s)
	if buf != nil && n > 0 && need <= len(buf.b) && unsafe.StringData(cur) == &buf.b[0] &&
		buf.claimed.CompareAndSwap(int64(n), int64(need)) {
		copy(buf.b[n:need], s)
		return unsafe.String(&buf.b[0], need), buf
	}
	nb := &textBuf{b: make([]byte, max(2*need, minTextCap))}
	copy(nb.b, cur)
	copy(nb.b[n:need], s)
	nb.claimed.Store(int64(need))
	return unsafe.String(&nb.b[0], need), nb
}

// AppendContent returns p with s appended to Content; p itself is not
// changed. Successive appends to the newest version of a part share one
// append-only buffer, so streaming n deltas into a part costs amortised
// O(len(delta)) per delta instead of O(len(Content)), while every earlier
// version keeps its own Content (bytes a version can see are never written
// again). Content stays an ordinary string for readers and for JSON.
func (p ResponsePart) AppendContent(s string) ResponsePart {
	p.Content, p.text = appendText(p.text, p.Content, s)
	return p
}
