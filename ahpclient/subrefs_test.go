package ahpclient

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// TestSubscriptionsAreCounted: over a real WebSocket to the real host, a
// channel subscribed twice stays subscribed after one Unsubscribe (its
// envelopes keep coming) and goes with the second; a failed Subscribe
// takes no hold. (Before, the first Unsubscribe dropped it: a brief read
// of a session ended the subscription the chat on screen relied on.)
func TestSubscriptionsAreCounted(t *testing.T) {
	h, u := startHost(t, ahphost.Options{NoToken: true})
	const a, b = "ahp-session:/refs-a", "ahp-session:/refs-b"
	for _, s := range []string{a, b} {
		if _, err := h.SeedSession(s, nil); err != nil {
			t.Fatal(err)
		}
	}
	c, err := New(testOptions(t, u))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	k := consume(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{a, a, b} {
		if _, err := c.Subscribe(ctx, ch, nil); err != nil {
			t.Fatalf("subscribe %s: %v", ch, err)
		}
	}
	if _, err := c.Subscribe(ctx, "ahp-session:/no-such", nil); err == nil {
		t.Fatal("subscribing an unknown session succeeded")
	}
	if n := c.refs.count("ahp-session:/no-such"); n != 0 {
		t.Fatalf("a failed subscribe holds the channel %d times", n)
	}
	rename := func(ch, title string) {
		t.Helper()
		if _, err := c.Dispatch(ctx, ch, &ahpwire.SessionTitleChanged{Title: title}); err != nil {
			t.Fatalf("rename %s: %v", ch, err)
		}
	}
	titled := func(ch, title string) func([]Event) bool {
		return func(evs []Event) bool {
			for _, e := range evs {
				if ev, ok := e.(EnvelopeEvent); ok && ev.Envelope.Channel == ch {
					if tc, ok := ev.Envelope.Action.(*ahpwire.SessionTitleChanged); ok && tc.Title == title {
						return true
					}
				}
			}
			return false
		}
	}

	must(t, c.Unsubscribe(ctx, a)) // one hold of two
	if !slices.Contains(c.Subscriptions(), a) {
		t.Fatalf("one Unsubscribe of two dropped %s: %v", a, c.Subscriptions())
	}
	rename(a, "still followed")
	k.waitFor("the envelope of the channel still held", 10*time.Second, titled(a, "still followed"))

	must(t, c.Unsubscribe(ctx, a)) // the last hold
	if slices.Contains(c.Subscriptions(), a) {
		t.Fatalf("%s still subscribed after its last Unsubscribe: %v", a, c.Subscriptions())
	}
	rename(a, "no longer followed")
	rename(b, "after it") // serverSeq after a's rename: once it is here, a's would have been
	evs := k.waitFor("b's envelope", 10*time.Second, titled(b, "after it"))
	if titled(a, "no longer followed")(evs) {
		t.Fatal("an envelope of the unsubscribed channel was delivered")
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
