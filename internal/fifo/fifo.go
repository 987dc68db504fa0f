// Package fifo is the unbounded first-in first-out slice queue behind the
// client's event queue and the host's per-connection write queue. It does
// no locking; its owners guard it with their own mutex.
package fifo

// compactAt is the number of popped slots above which the live items are
// moved down once they fill less than half of the slice.
const compactAt = 1024

// Queue is a FIFO of T. The zero value is an empty queue.
type Queue[T any] struct {
	items []T
	head  int
}

// Len returns the number of queued items.
func (q *Queue[T]) Len() int { return len(q.items) - q.head }

// Push appends v.
func (q *Queue[T]) Push(v T) { q.items = append(q.items, v) }

// At returns a pointer to the i-th queued item (0 is the oldest); i must be
// below Len. The pointer is valid until the next Push, Pop or Remove.
func (q *Queue[T]) At(i int) *T { return &q.items[q.head+i] }

// Pop removes and returns the oldest item; the queue must not be empty.
// Popped slots are zeroed so the queue keeps nothing alive, and the slice
// is reused or compacted so memory does not grow with total traffic.
func (q *Queue[T]) Pop() T {
	v := q.items[q.head]
	var zero T
	q.items[q.head] = zero
	q.head++
	switch {
	case q.head == len(q.items):
		q.items = q.items[:0]
		q.head = 0
	case q.head > compactAt && q.head*2 > len(q.items):
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items = q.items[:n]
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
	j := q.head + i
	v := q.items[j]
	copy(q.items[j:], q.items[j+1:])
	var zero T
	q.items[len(q.items)-1] = zero
	q.items = q.items[:len(q.items)-1]
	return v
}

// Clear drops every item and the backing slice.
func (q *Queue[T]) Clear() {
	clear(q.items)
	q.items = nil
	q.head = 0
}
