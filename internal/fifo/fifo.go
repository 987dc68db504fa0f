// Package fifo is the unbounded first-in first-out queue behind the
// client's event queue and the host's per-connection write queue. It does
// no locking; its owners guard it with their own mutex.
//
// It is a list of fixed blocks (blockLen items each): a push never moves
// a queued item, it takes a new block when the last is full; a pop never
// moves one either, it lets go of the first block once that is used up.
// (A ring over one slice doubled and copied every queued item as a backlog
// grew, and freed the big old slices: with fifty writers each thousands of
// small messages behind one streaming reply, issue 28's fan-out spent a
// fifth of the host's CPU in those copies, in clearing the new slices and
// in handing the freed ones back to the OS. An append-and-slide slice
// before the ring was worse.) The only copy left is of block pointers,
// blockLen times fewer than items.
package fifo

import "sync"

// blockLen is the number of items in a block (a power of two).
const (
	blockShift = 7
	blockLen   = 1 << blockShift
	blockMask  = blockLen - 1
)

// block is blockLen items.
type block[T any] [blockLen]T

// Queue is a FIFO of T. The zero value is an empty queue.
type Queue[T any] struct {
	blocks []*block[T] // blocks[0] holds the oldest item at index head
	head   int         // index of the oldest item in blocks[0]
	n      int         // number of queued items
	spare  *block[T]   // one emptied block kept for the next (no churn at a block's edge)
	// Pool, when set, is where the queue takes its blocks and gives back
	// those it empties: queues that share one reuse each other's blocks
	// instead of allocating and collecting them (fifty writers each a few
	// thousand messages behind one reply, then caught up).
	Pool *Pool[T]
}

// Pool holds emptied blocks for the queues that share it (safe for
// concurrent use; the zero value is ready). The runtime may drop what it
// holds at a collection.
type Pool[T any] struct {
	p sync.Pool
}

// get returns an empty block.
func (p *Pool[T]) get() *block[T] {
	if p != nil {
		if b, ok := p.p.Get().(*block[T]); ok {
			return b
		}
	}
	return new(block[T])
}

// put keeps an empty block (every slot zero) for reuse.
func (p *Pool[T]) put(b *block[T]) {
	if p != nil {
		p.p.Put(b)
	}
}

// Len returns the number of queued items.
func (q *Queue[T]) Len() int { return q.n }

// Push appends v.
func (q *Queue[T]) Push(v T) {
	j := q.head + q.n
	if j>>blockShift == len(q.blocks) {
		b := q.spare
		if b == nil {
			b = q.Pool.get()
		}
		q.spare = nil
		q.blocks = append(q.blocks, b)
	}
	q.blocks[j>>blockShift][j&blockMask] = v
	q.n++
}

// At returns a pointer to the i-th queued item (0 is the oldest); i must be
// below Len. The pointer is valid until the next Push, Pop or Remove.
func (q *Queue[T]) At(i int) *T {
	j := q.head + i
	return &q.blocks[j>>blockShift][j&blockMask]
}

// Pop removes and returns the oldest item; the queue must not be empty.
// Popped slots are zeroed so the queue keeps nothing alive, and used-up
// blocks are let go, so memory follows what is queued, not total traffic.
func (q *Queue[T]) Pop() T {
	b := q.blocks[0]
	v := b[q.head]
	var zero T
	b[q.head] = zero
	q.head++
	q.n--
	switch {
	case q.head == blockLen:
		q.dropFirst()
	case q.n == 0:
		q.head = 0 // the block is empty: start it over
	}
	return v
}

// dropFirst lets go of the first block (used up, every slot zeroed),
// keeping it as the spare.
func (q *Queue[T]) dropFirst() {
	q.keep(q.blocks[0])
	q.blocks[0] = nil
	q.blocks = q.blocks[1:]
	q.head = 0
	if len(q.blocks) == 0 {
		q.blocks = q.blocks[:0:0] // (the emptied slice's array holds nothing, but let it go)
	}
}

// Remove removes and returns the i-th queued item (0 is the oldest),
// keeping the order of the others; i must be below Len.
func (q *Queue[T]) Remove(i int) T {
	if i == 0 {
		return q.Pop()
	}
	v := *q.At(i)
	for j := i; j < q.n-1; j++ { // the later items move down one slot
		*q.At(j) = *q.At(j + 1)
	}
	var zero T
	*q.At(q.n - 1) = zero
	q.n--
	if end := q.head + q.n; end&blockMask == 0 && end>>blockShift < len(q.blocks) {
		last := len(q.blocks) - 1 // the last block is empty now
		q.keep(q.blocks[last])
		q.blocks[last] = nil
		q.blocks = q.blocks[:last]
	}
	return v
}

// keep makes an emptied block the spare, giving the spare before it to
// the pool.
func (q *Queue[T]) keep(b *block[T]) {
	if q.spare != nil {
		q.Pool.put(q.spare)
	}
	q.spare = b
}

// Clear drops every item and block (the pool stays).
func (q *Queue[T]) Clear() {
	*q = Queue[T]{Pool: q.Pool}
}
