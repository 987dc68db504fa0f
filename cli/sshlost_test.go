package cli

import (
	"context"
	"strings"
	"testing"
	"time"
)

type fakeQuitter struct{ quit chan struct{} }

func (f *fakeQuitter) Quit() { close(f.quit) }

// TestStartedHostLostEndsTheUI: when the host started by ssh --start ends,
// the UI is quit and the caller learns why (exit 3 and a message).
func TestStartedHostLostEndsTheUI(t *testing.T) {
	lost := make(chan struct{})
	q := &fakeQuitter{quit: make(chan struct{})}
	hit := watchHostLost(context.Background(), lost, q)
	if hit() {
		t.Fatal("lost before the host ended")
	}
	close(lost)
	select {
	case <-q.quit:
	case <-time.After(testTimeout):
		t.Fatal("the UI was not quit")
	}
	if !hit() {
		t.Fatal("not reported")
	}
	if m := hostLostMessage("box"); !strings.Contains(m, "ended with it") || !strings.Contains(m, "ahptui ssh box --start") {
		t.Fatalf("message %q", m)
	}
	// A UI that ended first is not quit later.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lost2 := make(chan struct{})
	hit2 := watchHostLost(ctx, lost2, &fakeQuitter{quit: make(chan struct{})})
	close(lost2)
	if hit2() && ctx.Err() == nil {
		t.Fatal("reported after the UI ended")
	}
	if watchHostLost(context.Background(), nil, q)() {
		t.Fatal("no started host: never lost")
	}
}
