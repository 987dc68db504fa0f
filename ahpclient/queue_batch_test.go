package ahpclient

import (
	"context"
	"testing"
)

// popBatch takes the queued events in order, at most max, and frees their
// room for a producer waiting at high water.
func TestQueuePopBatch(t *testing.T) {
	q := newEventQueue(3)
	ctx := context.Background()
	for _, ch := range []string{"a", "b", "c"} {
		if err := q.push(ctx, ChannelLostEvent{Channel: ch}, dataEvent); err != nil {
			t.Fatal(err)
		}
	}
	pushed := make(chan error, 1)
	go func() { pushed <- q.push(ctx, ChannelLostEvent{Channel: "d"}, dataEvent) }()
	got, err := q.popBatch(ctx, nil, 2)
	if err != nil || len(got) != 2 || got[0] != (ChannelLostEvent{Channel: "a"}) || got[1] != (ChannelLostEvent{Channel: "b"}) {
		t.Fatalf("first batch %v, %v", got, err)
	}
	if err := <-pushed; err != nil { // room was freed: the producer got in
		t.Fatal(err)
	}
	got, err = q.popBatch(ctx, got[:0], 10)
	if err != nil || len(got) != 2 || got[0] != (ChannelLostEvent{Channel: "c"}) || got[1] != (ChannelLostEvent{Channel: "d"}) {
		t.Fatalf("second batch %v, %v", got, err)
	}
	if q.len() != 0 || q.heavy != 0 {
		t.Fatalf("queue left with %d events, %d heavy", q.len(), q.heavy)
	}
	q.close()
	if _, err := q.popBatch(ctx, nil, 10); err != ErrClosed {
		t.Fatalf("closed queue: %v", err)
	}
}

// AckAll acknowledges a batch as EnvelopeEvent.Ack would one by one.
func TestAckAll(t *testing.T) {
	tr := newSeqTracker()
	var evs []EnvelopeEvent
	for seq := uint64(1); seq <= 3; seq++ {
		tr.mu.Lock()
		tr.addUnackedLocked(seq)
		tr.mu.Unlock()
		e := EnvelopeEvent{ack: tr}
		e.Envelope.ServerSeq = seq
		evs = append(evs, e)
	}
	AckAll(evs)
	if len(tr.unacked) != 0 || tr.applied != 3 {
		t.Fatalf("unacked %v, applied %d", tr.unacked, tr.applied)
	}
	AckAll(nil)
}
