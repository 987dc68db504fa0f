// Package fifo is the unbounded first-in first-out queue behind the
// client's event queue and the host's per-connection write queue. It does
// no locking; its owners guard it with their own mutex.
//
// It is a ring over one slice: a push never moves the queued items unless
// the ring is full (it then doubles, once per doubling), and a pop never
// moves any. (An append-and-slide slice copied every live item, and the
// dead ones before them, each time it grew: with a writer a few thousand
// small messages behind, issue 28's fan-out spent an eighth of the host's
// CPU in those copies and their garbage.)
package fifo

// minCap is the ring's first size.
const minCap = 16

// Queue is a FIFO of T. The zero value is an empty queue.
type Queue[T any] struct {
	ring []T // len(ring) is 0 or a power of two
	head int // index of the oldest item
	n    int // number of queued items
}

// Len returns the number of queued items.
func (q *Queue[T]) Len() int { return q.n }

// slot is the ring index of the i-th queued item.
func (q *Queue[T]) slot(i int) int { return (q.head + i) & (len(q.ring) - 1) }

// Push appends v.
func (q *Queue[T]) Push(v T) {
	if q.n == len(q.ring) {
		q.grow()
	}
	q.ring[q.slot(q.n)] = v
	q.n++
}

// grow doubles the ring, moving the items to its start in order.
func (q *Queue[T]) grow() {
	size := 2 * len(q.ring)
	if size < minCap {
		size = minCap
	}
	ring := make([]T, size)
	if q.n > 0 {
		k := copy(ring, q.ring[q.head:])
		copy(ring[k:], q.ring[:q.head])
	}
	q.ring, q.head = ring, 0
}

// At returns a pointer to the i-th queued item (0 is the oldest); i must be
// below Len. The pointer is valid until the next Push, Pop or Remove.
func (q *Queue[T]) At(i int) *T { return &q.ring[q.slot(i)] }

// Pop removes and returns the oldest item; the queue must not be empty.
// Popped slots are zeroed so the queue keeps nothing alive; the ring is
// reused, so memory does not grow with total traffic.
func (q *Queue[T]) Pop() T {
	v := q.ring[q.head]
	var zero T
	q.ring[q.head] = zero
	q.head = (q.head + 1) & (len(q.ring) - 1)
	q.n--
	if q.n == 0 {
		q.head = 0
	}
	return v
}

// Remove removes and returns the i-th queued item (0 is the oldest),
// keeping the order of the others; i must be below Len.
func (q *Queue[T]) Remove(i int) T {
	if i == 0 {
		return q.Pop()
	}
	v := *q.At(i)
	for j := i; j < q.n-1; j++ { // the later items move down one slot
		q.ring[q.slot(j)] = q.ring[q.slot(j+1)]
	}
	var zero T
	q.ring[q.slot(q.n-1)] = zero
	q.n--
	return v
}

// Clear drops every item and the ring.
func (q *Queue[T]) Clear() {
	q.ring = nil
	q.head = 0
	q.n = 0
}
