package ahpclient

import (
	"encoding/json"
	"slices"
	"sort"
	"sync"

	"github.com/ahptui/ahptui/ahpwire"
)

// chanState is the client's view of one subscription.
type chanState struct {
	// pending: a subscribe is in flight; envelopes are buffered until its
	// snapshot arrives.
	pending bool
	// existed: the channel was already subscribed when pending started.
	existed bool
	// buffer holds envelopes that arrived before the snapshot.
	buffer []recvEnvelope
	// delivered is the highest serverSeq handed to the event queue (or the
	// fromSeq of the last snapshot). Envelopes at or below it are skipped,
	// which makes replays idempotent.
	delivered uint64
}

// recvEnvelope is a received envelope and how it arrived; it is what admit
// judges and what a pending subscribe buffers.
type recvEnvelope struct {
	env      ahpwire.ActionEnvelope
	raw      json.RawMessage // undecoded action, if env.Action is nil
	replayed bool            // from a reconnect replay
	own      bool            // the echo of this client's dispatch
}

// event is the EnvelopeEvent that delivers b; ack is the tracker its Ack
// reports to.
func (b recvEnvelope) event(ack *seqTracker) EnvelopeEvent {
	return EnvelopeEvent{Envelope: b.env, Replayed: b.replayed, Own: b.own, ack: ack, raw: b.raw}
}

// admission is what the read loop does with one envelope.
type admission int

const (
	admitDrop admission = iota
	admitDeliver
	admitBuffered
)

// seqTracker implements PROTOCOL.md Part A §4: lastSeenServerSeq advances
// only over envelopes the consumer has acknowledged (applied); per-channel
// delivered cursors drop duplicates from replays; envelopes that arrive
// during a pending subscribe are buffered and those ≤ fromSeq dropped.
//
// lastSeen is (lowest unacknowledged serverSeq − 1) when anything is
// unacknowledged, else the highest serverSeq fully received. Reporting a
// lower value than strictly necessary is always safe: it only makes the
// host replay envelopes the delivered cursors then skip.
type seqTracker struct {
	mu        sync.Mutex
	processed uint64
	applied   uint64
	unacked   []uint64 // sorted ascending
	chans     map[string]*chanState
	buffered  int // envelopes ever buffered during a pending subscribe (tests)
	// returned is the envelope handed out by the last Client.Next, which
	// the next Next acknowledges (implicit acks; 0: none).
	returned uint64
}

func newSeqTracker() *seqTracker {
	return &seqTracker{chans: make(map[string]*chanState)}
}

// addUnackedLocked inserts seq keeping the slice sorted.
func (t *seqTracker) addUnackedLocked(seq uint64) {
	n := len(t.unacked)
	if n == 0 || t.unacked[n-1] < seq {
		t.unacked = append(t.unacked, seq)
		return
	}
	i := sort.Search(n, func(i int) bool { return t.unacked[i] >= seq })
	if i < n && t.unacked[i] == seq {
		return
	}
	t.unacked = slices.Insert(t.unacked, i, seq)
}

// removeUnackedLocked deletes seq if present.
func (t *seqTracker) removeUnackedLocked(seq uint64) bool {
	n := len(t.unacked)
	if n > 0 && t.unacked[0] == seq {
		t.unacked = t.unacked[1:]
		if len(t.unacked) == 0 {
			t.unacked = nil
		}
		return true
	}
	i := sort.Search(n, func(i int) bool { return t.unacked[i] >= seq })
	if i < n && t.unacked[i] == seq {
		t.unacked = slices.Delete(t.unacked, i, i+1)
		return true
	}
	return false
}

// noteProcessed records that seq was fully received (delivered, skipped
// or rejected).
func (t *seqTracker) noteProcessed(seq uint64) {
	t.mu.Lock()
	if seq > t.processed {
		t.processed = seq
	}
	t.mu.Unlock()
}

// admit decides what to do with a received, non-rejected envelope.
func (t *seqTracker) admit(b recvEnvelope) admission {
	t.mu.Lock()
	defer t.mu.Unlock()
	env := b.env
	seq := env.ServerSeq
	if seq > t.processed {
		t.processed = seq
	}
	cs := t.chans[env.Channel]
	if cs == nil {
		return admitDrop
	}
	if cs.pending {
		cs.buffer = append(cs.buffer, b)
		t.buffered++
		t.addUnackedLocked(seq)
		return admitBuffered
	}
	if seq <= cs.delivered {
		return admitDrop
	}
	cs.delivered = seq
	t.addUnackedLocked(seq)
	return admitDeliver
}

// ack marks seq applied by the consumer.
func (t *seqTracker) ack(seq uint64) {
	t.mu.Lock()
	t.ackLocked(seq)
	t.mu.Unlock()
}

// ackLocked is ack with t.mu held.
func (t *seqTracker) ackLocked(seq uint64) {
	if t.removeUnackedLocked(seq) && seq > t.applied {
		t.applied = seq
	}
}

// setReturned records seq as the envelope the last Next returned.
func (t *seqTracker) setReturned(seq uint64) {
	t.mu.Lock()
	t.returned = seq
	t.mu.Unlock()
}

// ackReturned acknowledges the envelope the last Next returned, if any.
func (t *seqTracker) ackReturned() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if seq := t.returned; seq != 0 {
		t.returned = 0
		t.ackLocked(seq)
	}
}

// lastSeen is the lastSeenServerSeq to report in reconnect.
func (t *seqTracker) lastSeen() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.unacked) > 0 {
		if m := t.unacked[0] - 1; m < t.processed {
			return m
		}
	}
	return t.processed
}

// beginSubscribe starts buffering for ch.
func (t *seqTracker) beginSubscribe(ch string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cs := t.chans[ch]
	if cs == nil {
		t.chans[ch] = &chanState{pending: true}
		return
	}
	if !cs.pending {
		cs.pending = true
		cs.existed = true
	}
}

// completeSubscribe ends buffering with a snapshot at fromSeq and returns
// the buffered envelopes newer than it, in arrival order. ok is false when
// the channel was unsubscribed meanwhile (the snapshot is then ignored).
func (t *seqTracker) completeSubscribe(ch string, fromSeq uint64) (out []recvEnvelope, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cs := t.chans[ch]
	if cs == nil {
		return nil, false
	}
	cs.pending, cs.existed = false, false
	cs.delivered = fromSeq
	for _, b := range cs.buffer {
		if b.env.ServerSeq <= cs.delivered {
			t.removeUnackedLocked(b.env.ServerSeq)
			continue
		}
		cs.delivered = b.env.ServerSeq
		out = append(out, b)
	}
	cs.buffer = nil
	return out, true
}

// abortSubscribe ends buffering without a snapshot (error or lost link).
func (t *seqTracker) abortSubscribe(ch string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.abortLocked(ch)
}

func (t *seqTracker) abortLocked(ch string) {
	cs := t.chans[ch]
	if cs == nil || !cs.pending {
		return
	}
	for _, b := range cs.buffer {
		t.removeUnackedLocked(b.env.ServerSeq)
	}
	cs.buffer = nil
	if !cs.existed {
		delete(t.chans, ch)
		return
	}
	cs.pending, cs.existed = false, false
}

// abortAllPending aborts every pending subscribe (link lost).
func (t *seqTracker) abortAllPending() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for ch, cs := range t.chans {
		if cs.pending {
			t.abortLocked(ch)
		}
	}
}

// setSnapshot (re)creates ch with a snapshot at fromSeq.
func (t *seqTracker) setSnapshot(ch string, fromSeq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	cs := t.chans[ch]
	if cs == nil {
		cs = &chanState{}
		t.chans[ch] = cs
	}
	for _, b := range cs.buffer {
		t.removeUnackedLocked(b.env.ServerSeq)
	}
	*cs = chanState{delivered: fromSeq}
}

// drop forgets ch (unsubscribe, missing after reconnect).
func (t *seqTracker) drop(ch string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cs := t.chans[ch]; cs != nil {
		for _, b := range cs.buffer {
			t.removeUnackedLocked(b.env.ServerSeq)
		}
		delete(t.chans, ch)
	}
}

// reinitialized resets the sequence space after a fresh initialize: the
// host's serverSeq is authoritative again (it may have restarted) and every
// subscription is re-created from the initialize snapshots.
func (t *seqTracker) reinitialized(serverSeq uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.processed = serverSeq
	t.applied = 0
	t.unacked = nil
	clear(t.chans)
}

// subscribed reports whether ch is an active (not pending) subscription.
func (t *seqTracker) subscribed(ch string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	cs := t.chans[ch]
	return cs != nil && !cs.pending
}

// subscriptions returns the active subscriptions (root first, then
// sorted), as sent in reconnect.
func (t *seqTracker) subscriptions() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.chans))
	for ch, cs := range t.chans {
		if !cs.pending || cs.existed {
			out = append(out, ch)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == ahpwire.RootURI:
			return -1
		case b == ahpwire.RootURI:
			return 1
		case a < b:
			return -1
		}
		return 1
	})
	return out
}

// processedSeq is the highest serverSeq fully received.
func (t *seqTracker) processedSeq() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.processed
}
