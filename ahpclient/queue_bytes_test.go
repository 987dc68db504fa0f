package ahpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// bigEnvelope is an envelope event whose undecoded action holds n bytes.
func bigEnvelope(seq uint64, n int) EnvelopeEvent {
	ev := EnvelopeEvent{raw: json.RawMessage(`"` + strings.Repeat("x", n-2) + `"`)}
	ev.Envelope.ServerSeq = seq
	return ev
}

// A burst of big events stops the producer at HighWaterBytes though far
// fewer than HighWater are queued (issue 32: 4096 terminal outputs of
// 32 KiB queued 128 MiB), and resumes it, in order and with nothing lost,
// once the consumer took enough; an event bigger than the bound passes
// alone.
func TestQueueBoundedByBytes(t *testing.T) {
	const chunk = 32 << 10
	q := newEventQueueBytes(4096, 4*chunk)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := 1; i <= 4; i++ {
		if err := q.push(ctx, bigEnvelope(uint64(i), chunk), dataEvent); err != nil {
			t.Fatal(err)
		}
	}
	pushed := make(chan error, 1)
	go func() { pushed <- q.push(ctx, bigEnvelope(5, chunk), dataEvent) }()
	for blocked, _ := q.producerBlocked(); !blocked; blocked, _ = q.producerBlocked() {
		select {
		case err := <-pushed:
			t.Fatalf("the fifth 32 KiB event was queued past the 128 KiB bound (err %v)", err)
		case <-ctx.Done():
			t.Fatal("the producer neither waited nor pushed")
		case <-time.After(time.Millisecond):
		}
	}
	if ev, err := q.pop(ctx); err != nil || ev.(EnvelopeEvent).Envelope.ServerSeq != 1 {
		t.Fatalf("pop: %v %v", ev, err)
	}
	if err := <-pushed; err != nil {
		t.Fatalf("the blocked push: %v", err)
	}
	// Batches hand over at most maxBatchBytes after their first event.
	got, err := q.popBatch(ctx, nil, 100)
	if err != nil || len(got) != 4 {
		t.Fatalf("batch of %d: %v", len(got), err)
	}
	for i, ev := range got {
		if s := ev.(EnvelopeEvent).Envelope.ServerSeq; s != uint64(i+2) {
			t.Fatalf("event %d has seq %d", i, s)
		}
	}
	huge := bigEnvelope(6, 2*maxBatchBytes)
	if err := q.push(ctx, huge, dataEvent); err != nil {
		t.Fatalf("an event above the bound on an empty queue: %v", err)
	}
	_ = q.push(ctx, bigEnvelope(7, chunk), dataEventNoWait)
	if got, _ := q.popBatch(ctx, nil, 100); len(got) != 1 {
		t.Fatalf("a batch took %d events past the byte bound", len(got))
	}
	if got, _ := q.popBatch(ctx, nil, 100); len(got) != 1 || got[0].(EnvelopeEvent).Envelope.ServerSeq != 7 {
		t.Fatalf("last batch: %v", got)
	}
}
