package ahpclient

import (
	"context"
	"sync"

	"github.com/ahptui/ahptui/internal/fifo"
)

// eventQueue is the ordered, lossless event stream between the connection
// and the consumer. It never drops: "heavy" items (envelopes, snapshots,
// notifications pushed by the read loop) block the producer while HighWater
// of them, or HighWaterBytes of their payloads, are queued, which stops
// reading from the socket (backpressure: a burst of 32 KiB terminal
// outputs queued up to 4096 × their size before the byte bound, issue 32);
// control items (state changes, outbox updates) and forced items are always
// accepted so that no caller of the public API can deadlock on a slow
// consumer.
type eventQueue struct {
	mu        sync.Mutex
	items     fifo.Queue[queued]
	heavy     int
	highWater int
	bytes     int64 // payload bytes of the queued heavy items
	highBytes int64
	closed    bool
	blocked   int    // producers currently waiting for space
	blockGen  uint64 // incremented whenever a producer starts waiting

	// Wake-ups are one-slot semaphores: a woken waiter re-checks its
	// condition and passes the signal on while it still holds, so several
	// waiters never miss one and no channel is allocated per event.
	notEmpty chan struct{}
	notFull  chan struct{}
	done     chan struct{} // closed by close
}

// queued is one queue slot.
type queued struct {
	ev    Event
	heavy bool
	size  int64 // payload bytes (eventBytes), heavy items only
}

// maxBatchBytes bounds the payload bytes one popBatch hands over (beyond
// its first event): the consumer decodes a batch's actions at once.
const maxBatchBytes = 4 << 20

// eventBytes is the payload size of a heavy event: the bytes it holds
// that the wire brought (an undecoded action, a snapshot's state, a
// notification's params), at least a nominal 256.
func eventBytes(ev Event) int64 {
	n := 0
	switch e := ev.(type) {
	case EnvelopeEvent:
		n = len(e.raw)
	case SnapshotEvent:
		n = len(e.Snapshot.State)
	case NotificationEvent:
		n = len(e.Params)
	}
	return int64(max(n, 256))
}

// pushKind says how an event counts against HighWater and whether its
// producer may wait for room.
type pushKind int

const (
	// controlEvent (state changes, outbox updates) is never counted and
	// never waits, so no caller of the public API can block on a slow
	// consumer.
	controlEvent pushKind = iota
	// dataEvent (envelopes, notifications of the read loop) is counted and
	// waits while HighWater data events are queued: backpressure.
	dataEvent
	// dataEventNoWait is counted but never waits: data produced where
	// waiting could deadlock (a response hook, a buffered flush).
	dataEventNoWait
)

func newEventQueue(highWater int) *eventQueue {
	return newEventQueueBytes(highWater, DefaultHighWaterBytes)
}

// newEventQueueBytes is newEventQueue with a bound on queued bytes too.
func newEventQueueBytes(highWater int, highBytes int64) *eventQueue {
	if highWater < 1 {
		highWater = 1
	}
	if highBytes < 1 {
		highBytes = 1
	}
	return &eventQueue{
		highWater: highWater,
		highBytes: highBytes,
		notEmpty:  make(chan struct{}, 1),
		notFull:   make(chan struct{}, 1),
		done:      make(chan struct{}),
	}
}

// wake posts a signal on ch without blocking.
func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// push appends ev. A dataEvent waits while HighWater data events, or
// HighWaterBytes of them, are queued (one bigger than the bound passes
// alone), until ctx is done (then it returns ctx.Err() and ev is not queued)
// or the queue is closed (ErrClosed). The other kinds never wait; they fail
// only with ErrClosed.
func (q *eventQueue) push(ctx context.Context, ev Event, kind pushKind) error {
	heavy := kind != controlEvent
	var size int64
	if heavy {
		size = eventBytes(ev)
	}
	q.mu.Lock()
	waiting := false
	for {
		if q.closed {
			if waiting {
				q.blocked--
			}
			q.mu.Unlock()
			return ErrClosed
		}
		if kind != dataEvent || !q.fullLocked() {
			break
		}
		if !waiting {
			waiting = true
			q.blocked++
			q.blockGen++
		}
		q.mu.Unlock()
		select {
		case <-q.notFull:
		case <-q.done:
		case <-ctx.Done():
			q.mu.Lock()
			q.blocked--
			q.mu.Unlock()
			return ctx.Err()
		}
		q.mu.Lock()
	}
	if waiting {
		q.blocked--
	}
	q.items.Push(queued{ev: ev, heavy: heavy, size: size})
	if heavy {
		q.heavy++
		q.bytes += size
	}
	if heavy && !q.fullLocked() && q.blocked > 0 {
		wake(q.notFull) // pass on to another waiting producer
	}
	q.mu.Unlock()
	wake(q.notEmpty)
	return nil
}

// fullLocked reports whether a dataEvent must wait: HighWater heavy
// events or HighWaterBytes of them are queued. q.mu is held.
func (q *eventQueue) fullLocked() bool {
	return q.heavy >= q.highWater || q.bytes >= q.highBytes
}

// take pops the oldest item and uncounts it. q.mu is held.
func (q *eventQueue) take() queued {
	it := q.items.Pop()
	if it.heavy {
		q.heavy--
		q.bytes -= it.size
	}
	return it
}

// pop removes the oldest event, waiting until one is queued, ctx is done or
// the queue is closed and empty (ErrClosed).
func (q *eventQueue) pop(ctx context.Context) (Event, error) {
	q.mu.Lock()
	if err := q.waitLocked(ctx); err != nil {
		return nil, err
	}
	it := q.take()
	q.unlockAfterPop(it.heavy)
	return it.ev, nil
}

// waitLocked waits until an event is queued. q.mu is held on entry and,
// when it returns nil, on return; an error (ctx done, or ErrClosed once
// the queue is closed and empty) returns with q.mu released.
func (q *eventQueue) waitLocked(ctx context.Context) error {
	for q.items.Len() == 0 {
		if q.closed {
			q.mu.Unlock()
			return ErrClosed
		}
		q.mu.Unlock()
		select {
		case <-q.notEmpty:
		case <-q.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		q.mu.Lock()
	}
	return nil
}

// unlockAfterPop releases q.mu after events were taken, then wakes another
// waiting consumer if events are left and a blocked producer if freed
// (a heavy event was taken) made room.
func (q *eventQueue) unlockAfterPop(freed bool) {
	more := q.items.Len() > 0
	space := freed && q.blocked > 0
	q.mu.Unlock()
	if more {
		wake(q.notEmpty) // pass on to another waiting consumer
	}
	if space {
		wake(q.notFull)
	}
}

// len returns the number of queued events.
func (q *eventQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.items.Len()
}

// producerBlocked reports whether a producer is waiting for space, and a
// generation counter that changes whenever one starts waiting.
func (q *eventQueue) producerBlocked() (bool, uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.blocked > 0, q.blockGen
}

// close makes pushes fail and pops drain then fail with ErrClosed.
func (q *eventQueue) close() {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		close(q.done)
	}
	q.mu.Unlock()
}

// popBatch waits like pop for the first event, then moves every further
// queued event (up to max in all, and maxBatchBytes of payload after the
// first) to dst under the same lock: a consumer that fell behind takes
// what is already there in one step.
func (q *eventQueue) popBatch(ctx context.Context, dst []Event, max int) ([]Event, error) {
	q.mu.Lock()
	if err := q.waitLocked(ctx); err != nil {
		return dst, err
	}
	freed := false
	var taken int64
	for n := 0; n == 0 || (n < max && q.items.Len() > 0 && taken < maxBatchBytes); n++ {
		it := q.take()
		freed = freed || it.heavy
		taken += it.size
		dst = append(dst, it.ev)
	}
	q.unlockAfterPop(freed)
	return dst, nil
}
