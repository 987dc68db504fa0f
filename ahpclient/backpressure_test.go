package ahpclient

import (
	"context"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// A consumer far slower than the host: reading pauses at HighWater instead
// of dropping, the link is cut while the reader is paused, and the slow
// consumer still ends with exactly the state of a fast one.
func TestSlowConsumerBackpressureIsLossless(t *testing.T) {
	h, url := startHost(t, ahphost.Options{NoToken: true})
	fast, fa := startClient(t, testOptions(t, url))
	chat := openSession(t, fast, fa, sessionURI(13))

	o := testOptions(t, url)
	o.HighWater = 4
	slow, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = slow.Close() })
	sa := consumeAppSlow(t, slow, 3*time.Millisecond)
	if err := slow.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	retry(t, "subscribe", func(ctx context.Context) error { _, err := slow.Subscribe(ctx, chat, nil); return err })

	if _, err := fast.Dispatch(context.Background(), chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "bp", Message: ahpwire.UserMessage("hello backpressure")}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if b, _ := slow.q.producerBlocked(); b {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the slow client's reader never paused at high water")
		}
		time.Sleep(time.Millisecond)
	}
	if n := slow.q.len(); n > o.HighWater+8 {
		t.Fatalf("queue grew to %d events despite HighWater %d", n, o.HighWater)
	}
	h.DropAll() // cut the link while the reader is paused
	for !fa.turnFinished(chat, "bp") {
		time.Sleep(5 * time.Millisecond)
	}
	deadline = time.Now().Add(20 * time.Second)
	for !sa.turnFinished(chat, "bp") {
		if time.Now().After(deadline) {
			t.Fatalf("slow consumer never saw the end of the turn:%s", describeTail(sa.snapshot(), 8))
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The paused reader may have had the whole turn buffered before the
	// cut; either way it must notice the cut and recover.
	sa.waitFor("reconnect of the slow client", 20*time.Second, func(evs []Event) bool {
		return countState(evs, Reconnecting) > 0 && countState(evs, Connected) >= 2
	})
	var want, got string
	fa.withMirror(func(m *mirror) { want = normalize(mustJSON(m.chats[chat])) })
	sa.withMirror(func(m *mirror) {
		got = normalize(mustJSON(m.chats[chat]))
		if len(m.problems) > 0 {
			t.Fatalf("delivery problems: %v", m.problems)
		}
	})
	if got != want {
		t.Fatalf("slow consumer state differs:\n got %s\nwant %s", clip(got), clip(want))
	}
}
