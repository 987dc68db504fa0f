package ahpclient

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestQueueOrderAndBackpressure(t *testing.T) {
	q := newEventQueue(2)
	ctx := context.Background()
	for i := 1; i <= 2; i++ {
		if err := q.push(ctx, ChannelLostEvent{Channel: string(rune('a' + i))}, dataEvent); err != nil {
			t.Fatal(err)
		}
	}
	// Control events are never blocked.
	if err := q.push(ctx, ConnStateEvent{}, controlEvent); err != nil {
		t.Fatal(err)
	}
	pushed := make(chan error, 1)
	go func() { pushed <- q.push(ctx, ChannelLostEvent{Channel: "d"}, dataEvent) }()
	deadline := time.Now().Add(2 * time.Second)
	for {
		if b, _ := q.producerBlocked(); b {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("producer never blocked at high water")
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case <-pushed:
		t.Fatal("heavy push did not wait at high water")
	default:
	}
	want := []Event{ChannelLostEvent{Channel: "b"}, ChannelLostEvent{Channel: "c"}, ConnStateEvent{}, ChannelLostEvent{Channel: "d"}}
	for i, w := range want {
		ev, err := q.pop(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ev != w {
			t.Fatalf("event %d = %#v, want %#v", i, ev, w)
		}
		if i == 0 {
			if err := <-pushed; err != nil {
				t.Fatalf("blocked push: %v", err)
			}
		}
	}
}

func TestQueueForceAndCancel(t *testing.T) {
	q := newEventQueue(1)
	bg := context.Background()
	_ = q.push(bg, SnapshotEvent{}, dataEvent)
	if err := q.push(bg, SnapshotEvent{}, dataEventNoWait); err != nil {
		t.Fatalf("forced push: %v", err)
	}
	ctx, cancel := context.WithTimeout(bg, 20*time.Millisecond)
	defer cancel()
	if err := q.push(ctx, SnapshotEvent{}, dataEvent); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("push at high water with expiring ctx = %v", err)
	}
	if n := q.len(); n != 2 {
		t.Fatalf("len = %d, want 2", n)
	}
}

func TestQueueCloseDrainsThenFails(t *testing.T) {
	q := newEventQueue(4)
	bg := context.Background()
	_ = q.push(bg, ConnStateEvent{State: ConnState{Phase: Closed}}, controlEvent)
	q.close()
	if err := q.push(bg, ConnStateEvent{}, controlEvent); !errors.Is(err, ErrClosed) {
		t.Fatalf("push after close = %v", err)
	}
	if ev, err := q.pop(bg); err != nil || ev.(ConnStateEvent).State.Phase != Closed {
		t.Fatalf("pop = %v, %v", ev, err)
	}
	if _, err := q.pop(bg); !errors.Is(err, ErrClosed) {
		t.Fatalf("pop on drained closed queue = %v", err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	q2 := newEventQueue(1)
	if _, err := q2.pop(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("pop with cancelled ctx = %v", err)
	}
}

func TestQueueBlockedProducerReleasedByClose(t *testing.T) {
	q := newEventQueue(1)
	bg := context.Background()
	_ = q.push(bg, SnapshotEvent{}, dataEvent)
	done := make(chan error, 1)
	go func() { done <- q.push(bg, SnapshotEvent{}, dataEvent) }()
	for {
		if b, _ := q.producerBlocked(); b {
			break
		}
		time.Sleep(time.Millisecond)
	}
	q.close()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClosed) {
			t.Fatalf("blocked push after close = %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("blocked producer not released by close")
	}
}
