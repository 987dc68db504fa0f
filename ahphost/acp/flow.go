package acp

import (
	"bytes"
	"sync"
)

// The SDK queues every session/update it reads and hands them to the
// client one by one; it never stops reading, and a queue of 1024 unhandled
// notifications closes the connection. A real agent streaming a long reply
// in small chunks outruns the host's handling (each chunk is reduced and
// sent to every client), so the bridge reads the agent's stdout only while
// fewer than maxUpdatesInFlight session/update lines are read but not yet
// handled: the pipe then holds the agent back, as a slow terminal would.
const (
	maxUpdatesInFlight = 512
	// maxFlowRead bounds one read, so that a read adds at most a few
	// hundred lines to the SDK's queue (its scanner asks for 1 MiB).
	maxFlowRead = 16 << 10
)

// updateMarker is in every session/update notification line (a quoted
// string holding it would have its quotes escaped).
var updateMarker = []byte(`"session/update"`)

// updateFlow counts session/update lines read from the agent and handled
// by the client, and holds reads while too many are in flight.
type updateFlow struct {
	mu       sync.Mutex
	cond     *sync.Cond
	inFlight int
	closed   bool
	// the line being read: whether it held the marker so far, and its
	// last bytes (a marker may span two reads)
	seen bool
	tail []byte
}

func newUpdateFlow() *updateFlow {
	f := &updateFlow{}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// handled marks one session/update as handled by the client.
func (f *updateFlow) handled() {
	f.mu.Lock()
	if f.inFlight > 0 {
		f.inFlight--
	}
	f.mu.Unlock()
	f.cond.Broadcast()
}

// idle reports whether every session/update read so far was handled.
func (f *updateFlow) idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.inFlight == 0
}

// waitIdle waits until every session/update read so far was handled.
func (f *updateFlow) waitIdle() {
	f.mu.Lock()
	for f.inFlight > 0 && !f.closed {
		f.cond.Wait()
	}
	f.mu.Unlock()
}

// hold waits while too many session/updates are in flight.
func (f *updateFlow) hold() {
	f.mu.Lock()
	for f.inFlight >= maxUpdatesInFlight && !f.closed {
		f.cond.Wait()
	}
	f.mu.Unlock()
}

// close releases a held read for good (the connection ended).
func (f *updateFlow) close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	f.cond.Broadcast()
}

// count records the session/update lines that end in b.
func (f *updateFlow) count(b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(b) > 0 {
		nl := bytes.IndexByte(b, '\n')
		part := b
		if nl >= 0 {
			part = b[:nl]
		}
		if !f.seen {
			joined := append(f.tail, part...)
			f.seen = bytes.Contains(joined, updateMarker)
			if keep := len(updateMarker) - 1; len(joined) > keep {
				joined = joined[len(joined)-keep:]
			}
			f.tail = append(f.tail[:0], joined...)
		}
		if nl < 0 {
			return
		}
		if f.seen {
			f.inFlight++
		}
		f.seen, f.tail = false, f.tail[:0]
		b = b[nl+1:]
	}
}
