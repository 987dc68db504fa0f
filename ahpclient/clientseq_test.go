package ahpclient

import (
	"context"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// confirmedSeq waits for the outbox entry clientSeq to be Confirmed and
// for the host's echo to carry it as origin.clientSeq; it returns the
// echo's serverSeq.
func confirmedSeq(t *testing.T, a *appConsumer, channel string, clientSeq uint64) uint64 {
	t.Helper()
	var serverSeq uint64
	a.waitFor("confirmation of clientSeq", 10*time.Second, func(evs []Event) bool {
		confirmed, echoed := false, false
		for _, e := range evs {
			switch e := e.(type) {
			case OutboxEvent:
				if e.Entry.ClientSeq == clientSeq && e.Entry.Status == OutboxConfirmed {
					confirmed, serverSeq = true, e.Entry.ServerSeq
				}
			case EnvelopeEvent:
				o := e.Envelope.Origin
				echoed = echoed || (e.Own && e.Envelope.Channel == channel && o != nil && o.ClientSeq == clientSeq)
			}
		}
		return confirmed && echoed
	})
	return serverSeq
}

// TestClientSeqMonotonic dispatches before, during and after a real
// reconnect (the host drops every link): clientSeq keeps increasing, the
// entry held while offline keeps its seq and is confirmed under it after
// the reconnect, and the host sees exactly those seqs.
func TestClientSeqMonotonic(t *testing.T) {
	h, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	// A long backoff keeps the client offline until RetryNow, so the
	// dispatch in between is deterministically held.
	o.Backoff = BackoffPolicy{Initial: time.Minute, Max: time.Minute, Rand: func() float64 { return 0.5 }}
	c, a := startClient(t, o)
	session := sessionURI(41)
	openSession(t, c, a, session)
	ctx := context.Background()
	title := func(s string) ahpwire.Action { return &ahpwire.SessionTitleChanged{Title: s} }

	s1, err := c.Dispatch(ctx, session, title("before"))
	if err != nil {
		t.Fatal(err)
	}
	srv1 := confirmedSeq(t, a, session, s1)

	h.DropAll()
	a.waitFor("reconnecting", 10*time.Second, func(evs []Event) bool {
		s, ok := lastState(evs)
		return ok && s.Phase == Reconnecting && !s.NextRetry.IsZero()
	})
	s2, err := c.Dispatch(ctx, session, title("while offline"))
	if err != nil {
		t.Fatal(err)
	}
	if s2 <= s1 {
		t.Fatalf("clientSeq went from %d to %d across the drop", s1, s2)
	}
	if got := c.Outbox(); len(got) != 1 || got[0].ClientSeq != s2 || got[0].Status != OutboxHeld {
		t.Fatalf("outbox while offline = %+v, want only %d held", got, s2)
	}
	if !c.RetryNow() {
		t.Fatal("RetryNow did not cut the backoff short")
	}
	a.waitFor("reconnected", 10*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
	srv2 := confirmedSeq(t, a, session, s2)

	s3, err := c.Dispatch(ctx, session, title("after"))
	if err != nil {
		t.Fatal(err)
	}
	if s3 <= s2 {
		t.Fatalf("clientSeq went from %d to %d after the reconnect", s2, s3)
	}
	srv3 := confirmedSeq(t, a, session, s3)
	if !(srv1 < srv2 && srv2 < srv3) {
		t.Fatalf("echo serverSeqs %d, %d, %d not increasing", srv1, srv2, srv3)
	}
	if got := c.Outbox(); len(got) != 0 {
		t.Fatalf("outbox not settled: %+v", got)
	}
}
