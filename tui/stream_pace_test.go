package tui

import (
	"context"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
)

// pacedBackend hands over n queued events per NextBatch and records when
// it was asked.
type pacedBackend struct {
	app.Backend
	n     int
	asked []time.Time
}

func (p *pacedBackend) NextBatch(ctx context.Context, dst []ahpclient.Event, max int) ([]ahpclient.Event, error) {
	p.asked = append(p.asked, time.Now())
	for i := 0; i < min(p.n, max); i++ {
		dst = append(dst, ahpclient.NotificationEvent{})
	}
	return dst, nil
}

// TestPumpTakesOncePerPace: after a batch, the pump takes nothing before
// the batch's pumpPace has passed, so a fast stream wakes the UI once a
// frame; a take of one event or of a full batch is not paced.
func TestPumpTakesOncePerPace(t *testing.T) {
	ctx := context.Background()
	pb := &pacedBackend{n: 3}
	before := time.Now()
	first, ok := waitForBatch(ctx, nil, pb, time.Time{})().(connBatchMsg)
	if !ok || len(first.evs) != 3 {
		t.Fatalf("first take: %#v", first)
	}
	if first.next.Before(before.Add(pumpPace)) || first.next.After(pb.asked[0].Add(pumpPace)) {
		t.Fatalf("next take allowed at %v, want pumpPace after the take began (%v)", first.next, pb.asked[0].Add(pumpPace))
	}
	second := waitForBatch(ctx, nil, pb, first.next)()
	if _, ok := second.(connBatchMsg); !ok {
		t.Fatalf("second take: %T", second)
	}
	if pb.asked[1].Before(first.next) {
		t.Fatalf("taken %v before the pace allowed (%v)", first.next.Sub(pb.asked[1]), first.next)
	}
	pb.n = maxBatch
	if full := waitForBatch(ctx, nil, pb, time.Time{})().(connBatchMsg); !full.next.IsZero() {
		t.Fatal("a full batch (a backlog) is paced")
	}
	pb.n = 1
	if _, ok := waitForBatch(ctx, nil, pb, time.Time{})().(connEventMsg); !ok {
		t.Fatal("one event is not handed over as an event")
	}
}

// TestPumpPaceEndsWithContext: a pump waiting out its pace stops when the
// model's context ends, without taking.
func TestPumpPaceEndsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pb := &pacedBackend{n: 3}
	done := make(chan any, 1)
	go func() { done <- waitForBatch(ctx, nil, pb, time.Now().Add(time.Hour))() }()
	cancel()
	msg := <-done
	if _, ok := msg.(pumpStoppedMsg); !ok {
		t.Fatalf("got %T, want pumpStoppedMsg", msg)
	}
	if len(pb.asked) != 0 {
		t.Fatal("the pump took events after its context ended")
	}
}
