package ahpclient

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// flushShuffled flushes seqs from one goroutine each, started in a
// shuffled order, as Bubble Tea runs a UI's commands, and waits for them.
func flushShuffled(t *testing.T, c *Client, seqs []uint64) {
	t.Helper()
	order := slices.Clone(seqs)
	rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var wg sync.WaitGroup
	errs := make(chan error, len(order))
	for _, s := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.Flush(s); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("flush: %v", err)
	}
}

// echoOrder waits until every one of seqs is settled and returns the
// clientSeqs of the client's own echoes on channel, in stream order,
// failing on anything but a confirmation.
func echoOrder(t *testing.T, a *appConsumer, channel string, seqs []uint64) []uint64 {
	t.Helper()
	evs := a.waitFor("every queued action settled", 15*time.Second, func(evs []Event) bool {
		n := 0
		for _, s := range seqs {
			if hasEvent(evs, func(e OutboxEvent) bool { return e.Entry.ClientSeq == s && e.Entry.Status.Final() }) {
				n++
			}
		}
		return n == len(seqs)
	})
	var got []uint64
	for _, e := range evs {
		switch e := e.(type) {
		case OutboxEvent:
			if slices.Contains(seqs, e.Entry.ClientSeq) && e.Entry.Status.Final() && e.Entry.Status != OutboxConfirmed {
				t.Fatalf("queued action %d ended %s: %v%s", e.Entry.ClientSeq, e.Entry.Status, e.Entry.Err, describeTail(evs, 14))
			}
		case EnvelopeEvent:
			if o := e.Envelope.Origin; e.Own && e.Envelope.Channel == channel && o != nil && slices.Contains(seqs, o.ClientSeq) {
				got = append(got, o.ClientSeq)
			}
		}
	}
	return got
}

// TestQueueOrderIsHostOrder: actions reach the real host in the order
// they were queued, however the goroutines that flush them interleave —
// connected, and across a reconnection (held while offline, sent in order
// on the next link). Typed text is the case that matters: a title typed
// one key at a time ends as typed, and each key's echo follows the one
// before it (the TUI once sent a quick "ls" to a terminal as "sl").
func TestQueueOrderIsHostOrder(t *testing.T) {
	h, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	// A long backoff keeps the client offline until RetryNow.
	o.Backoff = BackoffPolicy{Initial: time.Minute, Max: time.Minute, Rand: func() float64 { return 0.5 }}
	c, a := startClient(t, o)
	session := sessionURI(61)
	openSession(t, c, a, session)

	typeTitle := func(text string) []uint64 {
		var seqs []uint64
		for i := range text {
			s, err := c.Queue(session, &ahpwire.SessionTitleChanged{Title: text[:i+1]})
			if err != nil {
				t.Fatal(err)
			}
			seqs = append(seqs, s)
		}
		return seqs
	}
	title := func() string {
		var s string
		a.withMirror(func(m *mirror) { s = m.sessions[session].Title })
		return s
	}

	online := "ls -la && echo typed-in-order"
	seqs := typeTitle(online)
	flushShuffled(t, c, seqs)
	if got := echoOrder(t, a, session, seqs); !slices.Equal(got, seqs) {
		t.Fatalf("host echoed clientSeqs %v, queued %v", got, seqs)
	}
	if got := title(); got != online {
		t.Fatalf("title %q, typed %q", got, online)
	}

	h.DropAll()
	a.waitFor("reconnecting", 10*time.Second, func(evs []Event) bool {
		s, ok := lastState(evs)
		return ok && s.Phase == Reconnecting && !s.NextRetry.IsZero()
	})
	offline := "typed while offline"
	seqs = typeTitle(offline)
	flushShuffled(t, c, seqs)
	held := c.Outbox()
	if len(held) != len(seqs) {
		t.Fatalf("outbox while offline holds %d, queued %d", len(held), len(seqs))
	}
	for i, e := range held {
		if e.Status != OutboxHeld || e.ClientSeq != seqs[i] {
			t.Fatalf("outbox[%d] = %d %s, want %d held", i, e.ClientSeq, e.Status, seqs[i])
		}
	}
	if !c.RetryNow() {
		t.Fatal("RetryNow did not cut the backoff short")
	}
	if got := echoOrder(t, a, session, seqs); !slices.Equal(got, seqs) {
		t.Fatalf("after the reconnect the host echoed clientSeqs %v, queued %v", got, seqs)
	}
	if got := title(); got != offline {
		t.Fatalf("title %q, typed %q", got, offline)
	}
}

// TestCancelQueuedAfterItsMessage: a turn and the cancel queued right
// after it reach the real host in that order even when the cancel's flush
// runs first. Reversed, the host would reject the cancel (no such turn)
// and run the turn.
func TestCancelQueuedAfterItsMessage(t *testing.T) {
	// Paced, the demo's turn is still running when the cancel arrives.
	_, url := startHost(t, ahphost.Options{NoToken: true, Pace: 20 * time.Millisecond})
	c, a := startClient(t, testOptions(t, url))
	chat := openSession(t, c, a, sessionURI(62))
	for i := range 3 {
		id := "turn-" + string(rune('a'+i))
		send, err := c.Queue(chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: id, Message: ahpwire.UserMessage("/demo slow 50")})
		if err != nil {
			t.Fatal(err)
		}
		cancel, err := c.Queue(chat, &ahpwire.ChatTurnCancelled{TurnID: id, Duration: ahpwire.Ptr(int64(0))})
		if err != nil {
			t.Fatal(err)
		}
		// The cancel's command runs first, the message's after it.
		if err := c.Flush(cancel); err != nil {
			t.Fatal(err)
		}
		if err := c.Flush(send); err != nil {
			t.Fatal(err)
		}
		if got := echoOrder(t, a, chat, []uint64{send, cancel}); !slices.Equal(got, []uint64{send, cancel}) {
			t.Fatalf("turn %s: host echoed %v, queued message %d then cancel %d", id, got, send, cancel)
		}
		a.waitFor("turn "+id+" ended", 10*time.Second, func([]Event) bool { return a.turnFinished(chat, id) })
	}
}

// TestQueueRefusesWhatCannotBeSent: Queue says at once what can never be
// sent (no channel, no action, a closed client) and queues nothing.
func TestQueueRefusesWhatCannotBeSent(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	c, _ := startClient(t, testOptions(t, url))
	if _, err := c.Queue("", &ahpwire.SessionTitleChanged{Title: "x"}); err == nil {
		t.Fatal("queued on no channel")
	}
	if _, err := c.Queue(sessionURI(63), nil); err == nil {
		t.Fatal("queued no action")
	}
	_ = c.Close()
	if _, err := c.Queue(sessionURI(63), &ahpwire.SessionTitleChanged{Title: "x"}); err != ErrClosed {
		t.Fatalf("Queue on a closed client = %v, want ErrClosed", err)
	}
	if got := c.Outbox(); len(got) != 0 {
		t.Fatalf("outbox holds %+v", got)
	}
}
