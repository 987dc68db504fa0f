package ahphost

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/ahptui/ahptui/internal/fifo"
)

// msgKind classifies an outbound message for the interleaving policy.
type msgKind uint8

const (
	// kindAction is an `action` notification carrying a serverSeq; action
	// envelopes are never reordered.
	kindAction msgKind = iota + 1
	// kindResponse is a JSON-RPC response.
	kindResponse
	// kindNotification is a protocol notification (root/*, etc.).
	kindNotification
)

// outMsg is one serialized outbound JSON-RPC message. data may be shared
// between connections and must not be modified.
type outMsg struct {
	data []byte
	kind msgKind
	seq  uint64 // serverSeq for kindAction
	// at is the host's serverSeq when m was queued: m is written once the
	// database holds it (persist.go).
	at     uint64
	id     *uint64 // request id for kindResponse (used for -32050 replacement)
	method string  // for logs of dropped notifications
	// urgent marks a response whose request emitted no envelopes; it may
	// overtake queued action envelopes while a segmented message is in
	// flight (pings stay responsive during bulk transfers).
	urgent bool
	// closeAfter closes the connection (normal closure with this reason)
	// after the message has been written; used after -32005.
	closeAfter string
	// deferred, when set, is a response the writer builds (data is nil
	// until then); it is never written between another message's segments.
	deferred *deferred
}

// deferredCost is what a deferred (not yet built) response counts against
// the queue's byte budget, so queued requests cannot pile up for free.
const deferredCost = 1 << 10

// cost is m's charge against the queue's byte budget.
func (m *outMsg) cost() int64 {
	if m.deferred != nil {
		return deferredCost
	}
	return int64(len(m.data))
}

// interleavable reports whether m may be written between the segments of
// another message: built already and within limit bytes.
func (m *outMsg) interleavable(limit int64) bool {
	return m.deferred == nil && int64(len(m.data)) <= limit
}

// outQueue is an unbounded FIFO of outbound messages with a byte budget.
// It is safe for concurrent use: producers push under the host lock, the
// connection's writer pops.
type outQueue struct {
	mu     sync.Mutex
	items  fifo.Queue[outMsg]
	bytes  int64
	limit  int64
	closed bool
	// urgent counts the queued urgent messages, so popUrgent (called for
	// every segment of a message in flight) scans only when there is one.
	urgent int
	// n mirrors items.Len() (written under mu), so pending, asked once
	// per frame, takes no lock.
	n     atomic.Int64
	ready chan struct{} // capacity 1: signals "something was pushed" to a waiting writer
	// waiting is set by a writer about to wait on ready (q.mu): only then
	// does push signal.
	waiting bool
}

// outBlocks is the blocks of every connection's queue (fifo.Pool): one
// streaming reply puts every subscriber's writer thousands of messages
// behind, and then each catches up.
var outBlocks fifo.Pool[outMsg]

func newOutQueue(limit int64) *outQueue {
	q := &outQueue{limit: limit, ready: make(chan struct{}, 1)}
	q.items.Pool = &outBlocks
	return q
}

// pushResult is the outcome of push.
type pushResult uint8

const (
	pushed pushResult = iota
	queueClosed
	queueFull
)

// push appends m, unless the queue is closed or its byte budget would be
// exceeded (the caller then closes the connection as a slow consumer).
func (q *outQueue) push(m outMsg) pushResult {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return queueClosed
	}
	if q.bytes+m.cost() > q.limit && q.len() > 0 {
		q.mu.Unlock()
		return queueFull
	}
	q.items.Push(m)
	q.n.Store(int64(q.items.Len()))
	q.bytes += m.cost()
	if m.urgent {
		q.urgent++
	}
	wake := q.waiting
	q.waiting = false
	q.mu.Unlock()
	if wake { // (a writer busy writing needs no signal: a channel operation per message saved)
		select {
		case q.ready <- struct{}{}:
		default:
		}
	}
	return pushed
}

func (q *outQueue) len() int { return q.items.Len() }

// pending reports whether a message is queued (the writer corks its write
// when more follow, cork.go).
func (q *outQueue) pending() bool {
	return q.n.Load() > 0
}

// popLocked removes the head; q.mu must be held and the queue non-empty.
func (q *outQueue) popLocked() outMsg {
	m := q.items.Pop()
	q.forget(&m)
	return m
}

// removeLocked removes the i-th message; q.mu must be held.
func (q *outQueue) removeLocked(i int) outMsg {
	m := q.items.Remove(i)
	q.forget(&m)
	return m
}

// forget takes a removed message off the byte budget and urgent count.
func (q *outQueue) forget(m *outMsg) {
	q.n.Store(int64(q.items.Len()))
	q.bytes -= m.cost()
	if m.urgent {
		q.urgent--
	}
}

// popBatch blocks until a message is available, the queue is closed or
// ctx is done, then takes the head and, unless the head is
// deferred or too big for one frame (limit), the messages after it that
// are neither, up to cap(dst) in all, appending them to dst. The writer
// writes them in order without taking the lock for each (a writer behind
// a streaming reply took it, and the producer's cache lines, per delta);
// what may need the queue's interleaving rules (a build, a segmented
// message) is only ever a batch of its own, taken first.
func (q *outQueue) popBatch(ctx context.Context, limit int64, dst []outMsg) ([]outMsg, bool) {
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return dst, false
		}
		if q.len() > 0 {
			m := q.popLocked()
			dst = append(dst, m)
			for m.interleavable(limit) && q.len() > 0 && len(dst) < cap(dst) && q.items.At(0).interleavable(limit) {
				dst = append(dst, q.popLocked())
			}
			q.mu.Unlock()
			return dst, true
		}
		q.waiting = true
		q.mu.Unlock()
		select {
		case <-q.ready:
		case <-ctx.Done():
			return dst, false
		}
	}
}

// popIf removes and returns the head if ok(head) is true. It never blocks.
func (q *outQueue) popIf(ok func(*outMsg) bool) (outMsg, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.len() == 0 || !ok(q.items.At(0)) {
		return outMsg{}, false
	}
	return q.popLocked(), true
}

// popUrgent removes and returns the first urgent message that ok accepts,
// wherever it is in the queue. It never blocks.
func (q *outQueue) popUrgent(ok func(*outMsg) bool) (outMsg, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := 0; q.urgent > 0 && i < q.items.Len(); i++ {
		m := q.items.At(i)
		if !m.urgent || !ok(m) {
			continue
		}
		return q.removeLocked(i), true
	}
	return outMsg{}, false
}

// dropActions removes every queued action envelope (a rolled-back
// handshake: they were emitted for subscriptions that no longer exist).
func (q *outQueue) dropActions() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := 0; i < q.items.Len(); {
		if q.items.At(i).kind == kindAction {
			q.removeLocked(i)
			continue
		}
		i++
	}
}

// close marks the queue closed and drops its contents.
func (q *outQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.items.Clear()
	q.n.Store(0)
	q.bytes = 0
	q.urgent = 0
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}: // wake a waiting pop
	default:
	}
}
