package ahpclient

import (
	"slices"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func env(ch string, seq uint64) ahpwire.ActionEnvelope {
	return ahpwire.ActionEnvelope{Channel: ch, ServerSeq: seq, Action: &ahpwire.UnknownAction{Type: "x/test"}}
}

func TestSeqTrackerLastSeenOnlyAdvancesOnAck(t *testing.T) {
	tr := newSeqTracker()
	tr.reinitialized(10)
	tr.setSnapshot("a", 10)
	if got := tr.lastSeen(); got != 10 {
		t.Fatalf("after initialize lastSeen = %d, want 10", got)
	}
	for _, s := range []uint64{11, 12, 13} {
		if tr.admit(recvEnvelope{env: env("a", s)}) != admitDeliver {
			t.Fatalf("seq %d not delivered", s)
		}
	}
	if got := tr.lastSeen(); got != 10 {
		t.Fatalf("unacked: lastSeen = %d, want 10", got)
	}
	tr.ack(11)
	if got := tr.lastSeen(); got != 11 {
		t.Fatalf("after ack 11: lastSeen = %d, want 11", got)
	}
	tr.ack(13) // out of order: 12 still pending
	if got := tr.lastSeen(); got != 11 {
		t.Fatalf("after ack 13: lastSeen = %d, want 11", got)
	}
	tr.ack(12)
	if got := tr.lastSeen(); got != 13 {
		t.Fatalf("all acked: lastSeen = %d, want 13", got)
	}
	tr.ack(99) // unknown: ignored
	if got := tr.lastSeen(); got != 13 {
		t.Fatalf("unknown ack moved lastSeen to %d", got)
	}
}

func TestSeqTrackerReplayIdempotent(t *testing.T) {
	tr := newSeqTracker()
	tr.reinitialized(0)
	tr.setSnapshot("a", 0)
	tr.setSnapshot("b", 0)
	var delivered []uint64
	feed := func(e ahpwire.ActionEnvelope) {
		if tr.admit(recvEnvelope{env: e}) == admitDeliver {
			delivered = append(delivered, e.ServerSeq)
		}
	}
	for _, e := range []ahpwire.ActionEnvelope{env("a", 1), env("b", 2), env("a", 3)} {
		feed(e)
	}
	tr.ack(1) // consumer applied only the first
	if got := tr.lastSeen(); got != 1 {
		t.Fatalf("lastSeen = %d, want 1", got)
	}
	// Replay from 1 re-sends 2 and 3, then new 4.
	for _, e := range []ahpwire.ActionEnvelope{env("b", 2), env("a", 3), env("b", 4), env("zzz", 5)} {
		feed(e)
	}
	if want := []uint64{1, 2, 3, 4}; !slices.Equal(delivered, want) {
		t.Fatalf("delivered %v, want %v", delivered, want)
	}
}

func TestSeqTrackerSubscribeBuffering(t *testing.T) {
	tr := newSeqTracker()
	tr.reinitialized(5)
	tr.beginSubscribe("c")
	if got := tr.admit(recvEnvelope{env: env("c", 6)}); got != admitBuffered {
		t.Fatalf("admit during pending = %v", got)
	}
	_ = tr.admit(recvEnvelope{env: env("c", 8)})
	if got := tr.lastSeen(); got != 5 {
		t.Fatalf("buffered envelopes must hold lastSeen: %d", got)
	}
	if subs := tr.subscriptions(); slices.Contains(subs, "c") {
		t.Fatalf("pending subscription reported: %v", subs)
	}
	out, ok := tr.completeSubscribe("c", 7)
	if !ok || len(out) != 1 || out[0].env.ServerSeq != 8 {
		t.Fatalf("flushed %v, want only seq 8", out)
	}
	tr.ack(8)
	if got := tr.lastSeen(); got != 8 {
		t.Fatalf("lastSeen = %d, want 8", got)
	}
	if got := tr.admit(recvEnvelope{env: env("c", 7)}); got != admitDrop {
		t.Fatalf("seq ≤ fromSeq admitted: %v", got)
	}
	if !tr.subscribed("c") {
		t.Fatal("c not subscribed after snapshot")
	}
}

func TestSeqTrackerUnsubscribeDuringSubscribe(t *testing.T) {
	tr := newSeqTracker()
	tr.beginSubscribe("c")
	_ = tr.admit(recvEnvelope{env: env("c", 3)})
	tr.drop("c")
	if _, ok := tr.completeSubscribe("c", 2); ok || tr.subscribed("c") {
		t.Fatal("a subscribe completing after unsubscribe revived the channel")
	}
	if got := tr.lastSeen(); got != 3 {
		t.Fatalf("dropped buffered envelope still holds lastSeen: %d", got)
	}
}

func TestSeqTrackerAbortSubscribe(t *testing.T) {
	tr := newSeqTracker()
	tr.reinitialized(1)
	tr.beginSubscribe("new")
	_ = tr.admit(recvEnvelope{env: env("new", 2)})
	tr.abortSubscribe("new")
	if tr.subscribed("new") || tr.lastSeen() != 2 {
		t.Fatalf("abort: subscribed=%v lastSeen=%d", tr.subscribed("new"), tr.lastSeen())
	}
	tr.setSnapshot("old", 1)
	tr.beginSubscribe("old")
	tr.abortAllPending()
	if !tr.subscribed("old") {
		t.Fatal("re-subscribe abort dropped an existing subscription")
	}
	tr.drop("old")
	if tr.subscribed("old") {
		t.Fatal("drop kept the subscription")
	}
}

func TestSeqTrackerSubscriptionsRootFirst(t *testing.T) {
	tr := newSeqTracker()
	for _, ch := range []string{"ahp-session:/b", ahpwire.RootURI, "ahp-chat:/a"} {
		tr.setSnapshot(ch, 0)
	}
	got := tr.subscriptions()
	want := []string{ahpwire.RootURI, "ahp-chat:/a", "ahp-session:/b"}
	if !slices.Equal(got, want) {
		t.Fatalf("subscriptions %v, want %v", got, want)
	}
}
