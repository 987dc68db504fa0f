package ahpclient

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// Subscribing to a chat with a large (segmented) snapshot while a turn
// streams ends in exactly the state of a client that watched all along.
func TestLateSubscriberWithSegmentedSnapshotDuringStream(t *testing.T) {
	// LargePartBytes -1: the 2 MiB reply stays inline (not by reference),
	// so the snapshot is large enough to be segmented.
	_, url := startHost(t, ahphost.Options{NoToken: true, Pace: time.Millisecond, LargePartBytes: -1})
	w, wa := startClient(t, testOptions(t, url))
	chat := openSession(t, w, wa, sessionURI(14))
	runTurn(t, w, wa, chat, "big", "/demo big 2m")
	if _, err := w.Dispatch(context.Background(), chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "slow", Message: ahpwire.UserMessage("/demo slow 150")}); err != nil {
		t.Fatal(err)
	}
	wa.waitFor("slow turn streaming", 20*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e EnvelopeEvent) bool {
			d, ok := e.Envelope.Action.(*ahpwire.ChatDelta)
			return ok && d.TurnID == "slow"
		})
	})

	o := testOptions(t, url)
	o.MaxFrameBytes = 64 << 10 // the 2 MiB snapshot arrives in ~45 segments
	o.PingTimeout = 5 * time.Second
	s, sa := startClient(t, o)
	// The subscribe moves a 2 MiB snapshot in ~45 segments while a turn
	// streams: on a loaded 2-core -race run that can take longer than
	// retry's 3 s per attempt, and every retry would restart the transfer.
	start := time.Now()
	retryWithin(t, "subscribe", 45*time.Second, 60*time.Second, func(ctx context.Context) error {
		_, err := s.Subscribe(ctx, chat, nil)
		return err
	})
	t.Logf("late subscribe took %v", time.Since(start).Round(time.Millisecond))
	for _, a := range []*appConsumer{wa, sa} {
		deadline := time.Now().Add(30 * time.Second)
		for !a.turnFinished(chat, "slow") {
			if time.Now().After(deadline) {
				t.Fatal("slow turn never finished")
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	var want, got string
	wa.withMirror(func(m *mirror) { want = normalize(mustJSON(m.chats[chat])) })
	sa.withMirror(func(m *mirror) {
		got = normalize(mustJSON(m.chats[chat]))
		if len(m.problems) > 0 {
			t.Fatalf("delivery problems: %v", m.problems)
		}
	})
	if got != want {
		t.Fatalf("late subscriber's state differs:\n got %s\nwant %s", clip(got), clip(want))
	}
}

// The embedded host never sends a channel's envelopes ahead of its
// subscribe result, so a scripted peer does: envelopes 5, 6 and 7 arrive
// before the snapshot (fromSeq 6). 5 and 6 must be dropped, 7 delivered
// after the snapshot.
func TestEnvelopesBeforeSnapshotAreBuffered(t *testing.T) {
	const chat = "ahp-chat:/buf"
	delta := func(seq int) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"` + chat + `","serverSeq":` + itoa(seq) +
			`,"action":{"type":"chat/delta","turnId":"t","partId":"p","content":"d` + itoa(seq) + `"}}}`)
	}
	f := newFakeHostWith(t, nil, func(id uint64) [][]byte {
		resp := []byte(`{"jsonrpc":"2.0","id":` + itoa(int(id)) + `,"result":{"snapshot":{"resource":"` + chat +
			`","fromSeq":6,"state":{"resource":"` + chat + `","title":"b","status":1,"modifiedAt":"x","turns":[]}}}}`)
		return [][]byte{delta(5), delta(6), delta(7), resp, delta(8)}
	})
	o := testOptions(t, f.url())
	o.SessionsLimit = -1
	c, a := startClient(t, o)
	if _, err := c.Subscribe(context.Background(), chat, nil); err != nil {
		t.Fatal(err)
	}
	evs := a.waitFor("envelope 8", 10*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e EnvelopeEvent) bool { return e.Envelope.ServerSeq == 8 })
	})
	var order []string
	for _, e := range evs {
		switch e := e.(type) {
		case SnapshotEvent:
			if e.Snapshot.Resource == chat {
				order = append(order, "snapshot@"+itoa(int(e.Snapshot.FromSeq)))
			}
		case EnvelopeEvent:
			order = append(order, "env"+itoa(int(e.Envelope.ServerSeq)))
		}
	}
	if want := "snapshot@6 env7 env8"; strings.Join(order, " ") != want {
		t.Fatalf("delivered %v, want %s", order, want)
	}
	c.seq.mu.Lock()
	n := c.seq.buffered
	c.seq.mu.Unlock()
	if n != 3 {
		t.Fatalf("%d envelopes buffered, want 3", n)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
