package ahpclient

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestOutboxTransitions(t *testing.T) {
	o := newOutbox()
	a := &ahpwire.UnknownAction{Type: "chat/x"}
	o.add(1, "c", a, OutboxHeld)
	o.add(2, "c", a, OutboxSent)
	if _, ok := o.transition(1, OutboxUncertain, nil, 0, OutboxSent); ok {
		t.Fatal("Held→Uncertain allowed despite from=Sent")
	}
	if e, ok := o.transition(2, OutboxUncertain, nil, 0, OutboxSent); !ok || e.Status != OutboxUncertain {
		t.Fatalf("Sent→Uncertain: %v %v", e, ok)
	}
	// A late echo still settles an uncertain entry.
	if e, ok := o.transition(2, OutboxConfirmed, nil, 42); !ok || e.ServerSeq != 42 {
		t.Fatalf("Uncertain→Confirmed: %v %v", e, ok)
	}
	if _, ok := o.get(2); ok {
		t.Fatal("final entry kept")
	}
	if _, ok := o.transition(2, OutboxRejected, nil, 0); ok {
		t.Fatal("final entry changed")
	}
	if got := o.withStatus(OutboxHeld); len(got) != 1 || got[0].ClientSeq != 1 {
		t.Fatalf("held = %v", got)
	}
}
