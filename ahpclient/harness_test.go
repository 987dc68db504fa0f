package ahpclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
)

// startHost runs a real ahphost on 127.0.0.1 and returns it and its URL.
func startHost(t testing.TB, o ahphost.Options) (*ahphost.Host, string) {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	h, err := ahphost.New(o)
	if err != nil {
		t.Fatalf("ahphost.New: %v", err)
	}
	u, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h, u
}

// serveWS starts a test server on 127.0.0.1 for a hand-written host;
// when the test ends its connections are closed, then the server.
func serveWS(t testing.TB, handler http.HandlerFunc) *httptest.Server {
	srv := httptest.NewServer(handler)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

// wsURL is the ws:// URL of a test server.
func wsURL(srv *httptest.Server) string { return "ws" + strings.TrimPrefix(srv.URL, "http") }

// testOptions are fast, deterministic client options for url. The
// heartbeat runs (every 200 ms) but judges a link dead only after 10 s
// without an answer: a test on a loaded machine (load 20 on 2 cores)
// stalls its process for more than 400 ms now and then, and a link the
// heartbeat dropped then failed requests in flight (issue 32). The tests
// of the heartbeat itself set their own.
func testOptions(t testing.TB, url string) Options {
	return Options{
		URL:          url,
		StateDir:     t.TempDir(),
		PingInterval: 200 * time.Millisecond,
		PingTimeout:  testPingTimeout,
		DialTimeout:  5 * time.Second,
		Backoff:      BackoffPolicy{Initial: 2 * time.Millisecond, Max: 20 * time.Millisecond, Rand: func() float64 { return 0.5 }},
	}
}

// testPingTimeout is testOptions' PingTimeout.
const testPingTimeout = 10 * time.Second

// consumer drains a client's events on its own goroutine, acknowledging
// envelopes (applied = recorded), and lets tests wait for conditions.
type consumer struct {
	t      testing.TB
	c      *Client
	mu     sync.Mutex
	cond   chan struct{}
	events []Event
	done   chan struct{}
	cancel context.CancelFunc
}

func consume(t testing.TB, c *Client) *consumer {
	ctx, cancel := context.WithCancel(context.Background())
	k := &consumer{t: t, c: c, cond: make(chan struct{}), done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(k.done)
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				return
			}
			k.mu.Lock()
			k.events = append(k.events, ev)
			close(k.cond)
			k.cond = make(chan struct{})
			k.mu.Unlock()
		}
	}()
	t.Cleanup(k.stop)
	return k
}

// drain waits for the consumer to reach the end of a closed client's
// stream (every event consumed).
func (k *consumer) drain(t testing.TB) {
	t.Helper()
	select {
	case <-k.done:
	case <-time.After(5 * time.Second):
		t.Fatal("consumer did not reach the end of the stream after Close")
	}
}

func (k *consumer) stop() {
	k.cancel()
	<-k.done
}

// snapshot returns a copy of the events so far.
func (k *consumer) snapshot() []Event {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]Event(nil), k.events...)
}

// waitFor waits until pred holds on the events so far.
func (k *consumer) waitFor(what string, timeout time.Duration, pred func([]Event) bool) []Event {
	k.t.Helper()
	deadline := time.After(timeout)
	for {
		k.mu.Lock()
		evs := append([]Event(nil), k.events...)
		ch := k.cond
		k.mu.Unlock()
		if pred(evs) {
			return evs
		}
		select {
		case <-ch:
		case <-deadline:
			k.t.Fatalf("timed out waiting for %s; %d events, last: %s\n%s", what, len(evs), describeTail(evs, 8), k.history(evs))
			return nil
		}
	}
}

func describeTail(evs []Event, n int) string {
	var b strings.Builder
	for _, e := range evs[max(0, len(evs)-n):] {
		fmt.Fprintf(&b, "\n  %s", describe(e))
	}
	return b.String()
}

// history describes what a timed-out wait needs beyond the last events
// (which a long reply fills): every connection state and outbox change
// so far, in order, and the client's state and outbox now.
func (k *consumer) history(evs []Event) string {
	var b strings.Builder
	b.WriteString("  connection states and outbox changes:")
	line := func(s string) { fmt.Fprintf(&b, "\n    %s", s) }
	// A run of reconnect attempts shows its first and last.
	inRun, more, last := false, 0, ""
	endRun := func() {
		if more > 1 {
			line(fmt.Sprintf("... %d more attempts", more-1))
		}
		if more > 0 {
			line(last)
		}
		more = 0
	}
	for _, e := range evs {
		s, isState := e.(ConnStateEvent)
		if _, isOutbox := e.(OutboxEvent); !isState && !isOutbox {
			continue
		}
		retry := isState && s.State.Phase == Reconnecting
		if retry && inRun {
			more, last = more+1, describe(e)
			continue
		}
		endRun()
		inRun = retry
		line(describe(e))
	}
	endRun()
	fmt.Fprintf(&b, "\n  now: state %s; outbox:", k.c.State())
	out := k.c.Outbox()
	for _, e := range out {
		fmt.Fprintf(&b, "\n    %d %s %v", e.ClientSeq, e.Status, e.Err)
	}
	if len(out) == 0 {
		b.WriteString(" empty")
	}
	return b.String()
}

func describe(e Event) string {
	switch e := e.(type) {
	case EnvelopeEvent:
		return fmt.Sprintf("envelope %s #%d %s", e.Envelope.Channel, e.Envelope.ServerSeq, e.Envelope.Action.ActionType())
	case ConnStateEvent:
		return "state " + e.State.String()
	case SnapshotEvent:
		return fmt.Sprintf("snapshot %s @%d", e.Snapshot.Resource, e.Snapshot.FromSeq)
	case OutboxEvent:
		return fmt.Sprintf("outbox %d %s %v", e.Entry.ClientSeq, e.Entry.Status, e.Entry.Err)
	case NotificationEvent:
		return "notification " + e.Method
	case ChannelLostEvent:
		return "lost " + e.Channel
	case SessionsEvent:
		return fmt.Sprintf("sessions %d %v", len(e.Result.Items), e.Err)
	}
	return fmt.Sprintf("%T", e)
}

// hasState reports whether a ConnStateEvent with phase p occurred.
func countState(evs []Event, p Phase) int {
	n := 0
	for _, e := range evs {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == p {
			n++
		}
	}
	return n
}

// lastState returns the last ConnState seen.
func lastState(evs []Event) (ConnState, bool) {
	for i := len(evs) - 1; i >= 0; i-- {
		if s, ok := evs[i].(ConnStateEvent); ok {
			return s.State, true
		}
	}
	return ConnState{}, false
}
