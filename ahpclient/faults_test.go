package ahpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/internal/testkit"
)

// startClient creates and starts a client on url with an app consumer.
func startClient(t *testing.T, o Options) (*Client, *appConsumer) {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	a := consumeApp(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	return c, a
}

// startResult creates a client (closed when the test ends), starts it
// without a consumer and returns Start's error.
func startResult(t *testing.T, o Options) (*Client, error) {
	t.Helper()
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return c, c.Start(ctx)
}

func hasEvent[T Event](evs []Event, pred func(T) bool) bool {
	for _, e := range evs {
		if v, ok := e.(T); ok && pred(v) {
			return true
		}
	}
	return false
}

// waitOutboxFinal waits until dispatch seq reaches a final state
// (confirmed, rejected, failed, ...) and returns that entry, so a test
// expecting one outcome fails at once, with the reason, on another.
func waitOutboxFinal(a *appConsumer, seq uint64, timeout time.Duration) OutboxEntry {
	a.t.Helper()
	var got OutboxEntry
	a.waitFor(fmt.Sprintf("dispatch %d final", seq), timeout, func(evs []Event) bool {
		return hasEvent(evs, func(e OutboxEvent) bool {
			if e.Entry.ClientSeq == seq && e.Entry.Status.Final() {
				got = e.Entry
				return true
			}
			return false
		})
	})
	return got
}

func TestSilentDropDetectedWithinTimeout(t *testing.T) {
	h, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	o.PingInterval, o.PingTimeout = 100*time.Millisecond, 150*time.Millisecond
	_, a := startClient(t, o)
	// The host stays silent far longer than the wait: only the client's
	// ping (its DeadLinkError, checked below) can find the dead link.
	h.GoSilent(time.Minute)
	evs := a.waitFor("dead link", 10*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool { return e.State.Phase == Reconnecting })
	})
	var st ConnState
	for _, e := range evs {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Reconnecting {
			st = s.State
			break
		}
	}
	var dl *DeadLinkError
	if !errors.As(st.Err, &dl) || !errors.Is(st.Err, ErrConnectionLost) {
		t.Fatalf("reconnect cause = %v, want *DeadLinkError", st.Err)
	}
}

func TestVersionFailureNamesBothSides(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	old := ProtocolVersions
	ProtocolVersions = []string{"7.0.0"}
	t.Cleanup(func() { ProtocolVersions = old })
	c, err := New(testOptions(t, url))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Start(context.Background())
	var ve *VersionError
	if !errors.As(err, &ve) || !errors.Is(err, ErrUnsupportedVersion) {
		t.Fatalf("Start = %v, want *VersionError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "7.0.0") || len(ve.Supported) == 0 || !strings.Contains(msg, ve.Supported[0]) {
		t.Fatalf("error does not name both sides' versions: %q", msg)
	}
	if c.State().Phase != Failed {
		t.Fatalf("state = %v, want failed", c.State())
	}
}

func TestBadTokenIsAuthErrorWithoutToken(t *testing.T) {
	h, url := startHost(t, ahphost.Options{Token: "right-token-1234"})
	bad := strings.Replace(url, h.Token(), "wrong-token-5678", 1)
	if bad == url {
		t.Fatalf("url %q carries no token", redact.String(url))
	}
	c, err := New(testOptions(t, bad))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Start(context.Background())
	var ae *AuthError
	if !errors.As(err, &ae) || ae.StatusCode != 401 && ae.StatusCode != 403 {
		t.Fatalf("Start = %v, want *AuthError", err)
	}
	for _, s := range []string{err.Error(), c.State().String()} {
		if strings.Contains(s, "wrong-token-5678") || strings.Contains(s, "right-token-1234") {
			t.Fatalf("token leaked: %q", s)
		}
	}
	// The right token via the Token option works (query + bearer header),
	// and nothing it logs across a reconnect contains the token.
	var logs testkit.SyncBuffer
	o := testOptions(t, strings.Split(url, "?")[0])
	o.Token = h.Token()
	o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c2, a2 := startClient(t, o)
	h.DropAll()
	a2.waitFor("reconnected", 20*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
	_ = c2.Close()
	if logs.String() == "" || strings.Contains(logs.String(), h.Token()) {
		t.Fatalf("logs empty or carrying the token:\n%s", logs.String())
	}
}

func TestUnreachableHostErrorIsMasked(t *testing.T) {
	c, err := New(Options{URL: "ws://127.0.0.1:1/?tkn=supersecret99", StateDir: t.TempDir(), DialTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Start(context.Background())
	var de *DialError
	if !errors.As(err, &de) {
		t.Fatalf("Start = %v, want *DialError", err)
	}
	if strings.Contains(err.Error(), "supersecret99") {
		t.Fatalf("token leaked: %q", err)
	}
}

func TestRejectionEchoIsNeverDelivered(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	c, a := startClient(t, testOptions(t, url))
	chat := openSession(t, c, a, sessionURI(2))
	seq, err := c.Dispatch(context.Background(), chat, &ahpwire.ChatTurnCancelled{TurnID: "no-such-turn", Duration: ahpwire.Ptr(int64(0))})
	if err != nil {
		t.Fatal(err)
	}
	evs := a.waitFor("rejection", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e OutboxEvent) bool { return e.Entry.ClientSeq == seq && e.Entry.Status.Final() })
	})
	var got OutboxEntry
	for _, e := range evs {
		if o, ok := e.(OutboxEvent); ok && o.Entry.ClientSeq == seq {
			got = o.Entry
		}
		if en, ok := e.(EnvelopeEvent); ok && en.Envelope.Action.ActionType() == ahpwire.ActionChatTurnCancelled {
			t.Fatalf("rejected action delivered as envelope #%d", en.Envelope.ServerSeq)
		}
	}
	var re *RejectedError
	if got.Status != OutboxRejected || !errors.As(got.Err, &re) || re.Reason == "" || !errors.Is(got.Err, ErrRejected) {
		t.Fatalf("outbox entry = %+v, want Rejected with reason", got)
	}
	// A valid dispatch is confirmed by its echo and delivered once.
	runTurn(t, c, a, chat, "turn-ok", "hi")
}

func TestUncertainAfterDropAndHeldWhileDisconnected(t *testing.T) {
	// Paced, the demo's reply to the resent turn is still streaming when
	// the client has reconnected in part 2, as it was on a loaded machine:
	// part 2 must wait for that turn to end (see there).
	_, url := startHost(t, ahphost.Options{NoToken: true, Pace: 5 * time.Millisecond})
	p := newDropProxy(t, url, 0)
	c, a := startClient(t, testOptions(t, p.URL()))
	chat := openSession(t, c, a, sessionURI(3))

	// 1. The dispatch frame is lost with the link: Uncertain, never re-sent.
	p.swallowNext(`"dispatchAction"`)
	seq, err := c.Dispatch(context.Background(), chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "lost", Message: ahpwire.UserMessage("lost")})
	if err != nil {
		t.Fatal(err)
	}
	a.waitFor("uncertain", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e OutboxEvent) bool { return e.Entry.ClientSeq == seq && e.Entry.Status == OutboxUncertain })
	})
	a.waitFor("reconnected", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e ConnStateEvent) bool { return e.State.Phase == Connected && e.State.Recovery == RecoveryReplay })
	})
	// An automatic re-send would go out on reconnecting, before any later
	// request, and the host echoes it before answering that request: once
	// a ping is answered, its echo would have arrived.
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("ping after reconnect: %v", err)
	}
	e, ok := c.ob.get(seq)
	if !ok || e.Status != OutboxUncertain {
		t.Fatalf("entry after reconnect = %+v (present %v), want still Uncertain", e, ok)
	}
	var te *TransportError
	if !errors.As(e.Err, &te) {
		t.Fatalf("uncertain entry error = %v, want *TransportError", e.Err)
	}
	if a.turnFinished(chat, "lost") {
		t.Fatal("uncertain dispatch was re-sent automatically")
	}
	if out := c.Outbox(); len(out) != 1 || out[0].ClientSeq != seq {
		t.Fatalf("Outbox() = %+v", out)
	}
	// The user's one-key resend.
	ns, err := c.Resend(context.Background(), seq)
	if err != nil || ns <= seq {
		t.Fatalf("Resend = %d, %v", ns, err)
	}
	a.waitFor("resent confirmed", 15*time.Second, func(evs []Event) bool {
		return hasEvent(evs, func(e OutboxEvent) bool { return e.Entry.ClientSeq == ns && e.Entry.Status == OutboxConfirmed })
	})
	// The host rejects a turn started while another is in progress ("a
	// turn is already in progress"): the held turn below may start only
	// once the resent one has ended.
	a.waitFor("resent turn finished", 30*time.Second, func([]Event) bool { return a.turnFinished(chat, "lost") })

	// 2. Dispatch while disconnected: Held, then sent after reconnecting.
	before := len(a.snapshot()) // a reconnect after this is the kill's
	p.gate(false)
	p.killAll()
	a.waitFor("reconnecting", 15*time.Second, func(evs []Event) bool {
		return countState(evs[before:], Reconnecting) >= 1
	})
	hs, err := c.Dispatch(context.Background(), chat, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "held", Message: ahpwire.UserMessage("held")})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := c.ob.get(hs); e.Status != OutboxHeld {
		t.Fatalf("dispatch while disconnected = %v, want held", e.Status)
	}
	p.gate(true)
	if got := waitOutboxFinal(a, hs, 20*time.Second); got.Status != OutboxConfirmed {
		t.Fatalf("held dispatch ended %v (%v), want confirmed", got.Status, got.Err)
	}
	if hs <= ns {
		t.Fatalf("clientSeq not monotonic across reconnects: %d after %d", hs, ns)
	}
}

func TestRequestsFailTypedAndNeverHang(t *testing.T) {
	h, url := startHost(t, ahphost.Options{NoToken: true})
	o := testOptions(t, url)
	o.PingInterval, o.PingTimeout = time.Hour, time.Hour // only the request's own fate
	c, a := startClient(t, o)
	h.GoSilent(3 * time.Second)
	// ctx honoured.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	err := c.Ping(ctx)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Ping with short ctx = %v", err)
	}
	// A waiter gets a typed transport error when the link ends.
	done := make(chan error, 1)
	go func() { done <- c.Ping(context.Background()) }()
	time.Sleep(50 * time.Millisecond)
	c.mu.Lock()
	k := c.cur
	c.mu.Unlock()
	k.fail(errors.New("test: link cut"))
	select {
	case err := <-done:
		if !errors.Is(err, ErrConnectionLost) {
			t.Fatalf("in-flight Ping = %v, want ErrConnectionLost", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("in-flight request hung after the link ended")
	}
	// While reconnecting: ErrNotConnected (requests) — dispatches are held.
	if err := c.Ping(context.Background()); err != nil && !errors.Is(err, ErrNotConnected) && !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("Ping while reconnecting = %v", err)
	}
	a.waitFor("reconnected", 20*time.Second, func(evs []Event) bool {
		return countState(evs, Connected) >= 2
	})
	_ = c.Close()
	if err := c.Ping(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("Ping after Close = %v", err)
	}
	if _, err := c.Dispatch(context.Background(), ahpwire.RootURI, &ahpwire.UnknownAction{Type: "x"}); !errors.Is(err, ErrClosed) {
		t.Fatalf("Dispatch after Close = %v", err)
	}
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	base := testkit.Goroutines()
	func() {
		h, err := ahphost.New(ahphost.Options{NoToken: true, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		url, err := h.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		c, err := New(testOptions(t, url))
		if err != nil {
			t.Fatal(err)
		}
		a := consumeApp(t, c)
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		chat := openSession(t, c, a, sessionURI(4))
		h.DropAll() // exercise the supervisor too
		a.waitFor("reconnected", 20*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
		runTurn(t, c, a, chat, "turn-leak", "hi")
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		a.drain(t)
		if err := c.Close(); err != nil { // idempotent
			t.Fatal(err)
		}
	}()
	testkit.CheckNoLeak(t, base)
}

func TestCloseDuringStartHandshake(t *testing.T) {
	base := testkit.Goroutines()
	func() {
		h, err := ahphost.New(ahphost.Options{NoToken: true, Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		url, err := h.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		h.GoSilent(time.Minute) // initialize is never answered
		c, err := New(testOptions(t, url))
		if err != nil {
			t.Fatal(err)
		}
		started := make(chan error, 1)
		go func() { started <- c.Start(context.Background()) }()
		time.Sleep(100 * time.Millisecond)
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-started:
			if !errors.Is(err, ErrClosed) {
				t.Fatalf("Start after Close = %v, want ErrClosed", err)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("Start did not return after Close")
		}
		h.GoSilent(0)
	}()
	testkit.CheckNoLeak(t, base)
}

func TestHeldDispatchFailsWhenClientFails(t *testing.T) {
	c, err := New(Options{URL: "ws://127.0.0.1:1/", StateDir: t.TempDir(), DialTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	seq, err := c.Dispatch(context.Background(), "ahp-chat:/x", &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "t", Message: ahpwire.UserMessage("hi")})
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := c.ob.get(seq); e.Status != OutboxHeld {
		t.Fatalf("dispatch before Start = %v, want held", e.Status)
	}
	if err := c.Start(context.Background()); err == nil {
		t.Fatal("Start against a closed port succeeded")
	}
	if _, ok := c.ob.get(seq); ok {
		t.Fatal("held dispatch survived the client's failure")
	}
	var got OutboxEntry
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		ev, err := c.Next(ctx)
		cancel()
		if err != nil {
			t.Fatalf("no Failed outbox event: %v", err)
		}
		if o, ok := ev.(OutboxEvent); ok && o.Entry.Status == OutboxFailed {
			got = o.Entry
			break
		}
	}
	if got.ClientSeq != seq || !errors.Is(got.Err, ErrNotConnected) {
		t.Fatalf("failed entry = %+v", got)
	}
	if _, err := c.Dispatch(context.Background(), "ahp-chat:/x", &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "t2"}); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("Dispatch on a failed client = %v", err)
	}
}
