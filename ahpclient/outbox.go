package ahpclient

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ahptui/ahptui/ahpwire"
)

// clientSeqCounter numbers dispatches for the life of the process, across
// reconnects and across Clients, so an old echo can never match a new
// dispatch.
var clientSeqCounter atomic.Uint64

// nextClientSeq returns the next clientSeq (starting at 1).
func nextClientSeq() uint64 { return clientSeqCounter.Add(1) }

// outbox tracks every dispatch until its fate is final. It is also the
// client's one send order: an entry's clientSeq is drawn under the same
// lock that records it (queue), so clientSeq order is the order callers
// queued in, whichever goroutines they are on, and every flush writes the
// held entries in clientSeq order (dispatch.go).
type outbox struct {
	mu      sync.Mutex
	entries map[uint64]*OutboxEntry
	sizes   map[uint64]int64 // frame size of each written entry
	quiet   map[uint64]bool  // queued, not yet flushed: no event has told of them
}

func newOutbox() *outbox {
	return &outbox{entries: make(map[uint64]*OutboxEntry), sizes: make(map[uint64]int64), quiet: make(map[uint64]bool)}
}

// queue records action on channel as a quiet Held entry under the next
// clientSeq, both under the lock, and returns a copy.
func (o *outbox) queue(channel string, a ahpwire.Action) OutboxEntry {
	o.mu.Lock()
	defer o.mu.Unlock()
	seq := nextClientSeq()
	e := &OutboxEntry{ClientSeq: seq, Channel: channel, Action: a, Status: OutboxHeld}
	o.entries[seq] = e
	o.quiet[seq] = true
	return *e
}

// takeQuiet returns the quiet entries still Held, ordered by clientSeq,
// and marks them told of: the caller (a flush, under Client.sendMu) writes
// or announces each of them.
func (o *outbox) takeQuiet() []OutboxEntry {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]OutboxEntry, 0, len(o.quiet))
	for seq := range o.quiet {
		if e := o.entries[seq]; e != nil && e.Status == OutboxHeld {
			out = append(out, *e)
		}
		delete(o.quiet, seq)
	}
	slices.SortFunc(out, byClientSeq)
	return out
}

// byClientSeq orders entries by clientSeq.
func byClientSeq(a, b OutboxEntry) int {
	switch {
	case a.ClientSeq < b.ClientSeq:
		return -1
	case a.ClientSeq > b.ClientSeq:
		return 1
	}
	return 0
}

// setSize records the frame size of entry seq (before it is written).
func (o *outbox) setSize(seq uint64, n int64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.entries[seq] != nil {
		o.sizes[seq] = n
	}
}

// sizeOf returns the recorded frame size of entry seq (0 if unknown).
func (o *outbox) sizeOf(seq uint64) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.sizes[seq]
}

// maxSentSize is the largest frame among Sent entries (written, not echoed).
func (o *outbox) maxSentSize() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	var n int64
	for seq, sz := range o.sizes {
		if e := o.entries[seq]; e != nil && e.Status == OutboxSent {
			n = max(n, sz)
		}
	}
	return n
}

// add records a new entry and returns a copy.
func (o *outbox) add(seq uint64, channel string, a ahpwire.Action, st OutboxStatus) OutboxEntry {
	o.mu.Lock()
	defer o.mu.Unlock()
	e := &OutboxEntry{ClientSeq: seq, Channel: channel, Action: a, Status: st}
	o.entries[seq] = e
	return *e
}

// transition moves entry seq to st if allowed and returns the new entry.
// Final entries never change, and a final transition removes the entry.
// from, when non-empty, restricts the transition to those current states.
func (o *outbox) transition(seq uint64, st OutboxStatus, err error, serverSeq uint64, from ...OutboxStatus) (OutboxEntry, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	e := o.entries[seq]
	if e == nil || e.Status.Final() {
		return OutboxEntry{}, false
	}
	if len(from) > 0 && !slices.Contains(from, e.Status) {
		return OutboxEntry{}, false
	}
	e.Status, e.Err = st, err
	delete(o.quiet, seq)
	if serverSeq != 0 {
		e.ServerSeq = serverSeq
	}
	out := *e
	if st.Final() {
		delete(o.entries, seq)
		delete(o.sizes, seq)
	}
	return out, true
}

// withStatus returns the entries in status st, ordered by clientSeq.
func (o *outbox) withStatus(st OutboxStatus) []OutboxEntry {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []OutboxEntry
	for _, e := range o.entries {
		if e.Status == st {
			out = append(out, *e)
		}
	}
	slices.SortFunc(out, byClientSeq)
	return out
}

// get returns entry seq.
func (o *outbox) get(seq uint64) (OutboxEntry, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	e := o.entries[seq]
	if e == nil {
		return OutboxEntry{}, false
	}
	return *e, true
}

// all returns every non-final entry ordered by clientSeq.
func (o *outbox) all() []OutboxEntry {
	o.mu.Lock()
	out := make([]OutboxEntry, 0, len(o.entries))
	for _, e := range o.entries {
		out = append(out, *e)
	}
	o.mu.Unlock()
	slices.SortFunc(out, byClientSeq)
	return out
}
