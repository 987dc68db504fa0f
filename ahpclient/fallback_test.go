package ahpclient

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// A restarted host does not know the client: reconnect fails with a
// JSON-RPC error, the client falls back to initialize with its old
// subscriptions, reports the ones the new host lacks as lost, and refreshes
// the session list.
func TestReconnectFallsBackToInitialize(t *testing.T) {
	_, url1 := startHost(t, ahphost.Options{NoToken: true})
	p := newDropProxy(t, url1, 0)
	c, a := startClient(t, testOptions(t, p.URL()))
	session := sessionURI(11)
	chat := openSession(t, c, a, session)
	before := len(a.snapshot())

	_, url2 := startHost(t, ahphost.Options{NoToken: true})
	p.retarget(url2)
	p.killAll()
	evs := a.waitFor("reinitialized", 20*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool {
			return e.State.Phase == Connected && e.State.Recovery == RecoveryReinitialized
		})
	})
	lost := map[string]bool{}
	rootSnap := false
	for _, e := range evs[before:] {
		switch e := e.(type) {
		case ChannelLostEvent:
			lost[e.Channel] = true
		case SnapshotEvent:
			rootSnap = rootSnap || (e.Snapshot.Resource == ahpwire.RootURI && e.Reason == SnapshotInitialize)
		}
	}
	if !lost[session] || !lost[chat] || !rootSnap {
		t.Fatalf("lost %v (want %s and %s), root snapshot %v", lost, session, chat, rootSnap)
	}
	if subs := c.Subscriptions(); !slices.Equal(subs, []string{ahpwire.RootURI}) {
		t.Fatalf("subscriptions after fallback = %v", subs)
	}
	a.waitFor("sessions refreshed", 15*time.Second, func(evs []Event) bool {
		n := 0
		for _, e := range evs {
			if s, ok := e.(SessionsEvent); ok && s.Err == nil {
				n++
			}
		}
		return n >= 2
	})
	// The new host works normally.
	chat2 := openSession(t, c, a, sessionURI(12))
	runTurn(t, c, a, chat2, "after-restart", "hi")
	if err := c.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
}
