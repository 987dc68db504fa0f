package ahpclient

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
)

// bigChat creates, through a default-limit watcher client, a chat whose
// snapshot is about 200 KiB, and returns its URI.
func bigChat(t *testing.T, url string, session int) string {
	t.Helper()
	w, wa := startClient(t, testOptions(t, url))
	chat := openSession(t, w, wa, sessionURI(session))
	runTurn(t, w, wa, chat, "big", "/demo big 200k")
	return chat
}

// A -32050 MessageTooLarge answer is a typed, per-request error: size and
// limit come from its data, ErrorCode still reports -32050, and the link
// stays up.
func TestMessageTooLargeAnswerIsTyped(t *testing.T) {
	const hostLimit = 64 << 10
	_, url := startHost(t, ahphost.Options{NoToken: true, MaxFrameBytes: hostLimit})
	chat := bigChat(t, url, 20)
	// Long chats arrive as a window of their newest turns (issue 12); a
	// 100 KiB draft is state no window can shrink below 64 KiB.
	d, _ := startClient(t, testOptions(t, url))
	draft := ahpwire.UserMessage(strings.Repeat("d", 100<<10))
	if _, err := d.Dispatch(context.Background(), chat, &ahpwire.ChatDraftChanged{Draft: &draft}); err != nil {
		t.Fatal(err)
	}
	if err := d.Ping(context.Background()); err != nil { // the host reads in order: the draft is applied
		t.Fatal(err)
	}
	o := testOptions(t, url)
	o.DisableChunking = true // the host's ceiling toward this client is its own 64 KiB
	c, a := startClient(t, o)
	_, err := c.Subscribe(context.Background(), chat, nil)
	var mt *MessageTooLargeError
	if !errors.As(err, &mt) || mt.Op != ahpwire.MethodSubscribe || mt.Limit != hostLimit || mt.Size <= hostLimit {
		t.Fatalf("Subscribe = %v, want *MessageTooLargeError with size > limit %d", err, hostLimit)
	}
	if code, ok := ErrorCode(err); !ok || code != ahpwire.CodeMessageTooLarge {
		t.Fatalf("ErrorCode = %d, %v", code, ok)
	}
	if !errors.Is(err, ErrMessageTooLarge) || errors.Is(err, ErrConnectionLost) {
		t.Fatalf("errors.Is: too large %v, connection lost %v", errors.Is(err, ErrMessageTooLarge), errors.Is(err, ErrConnectionLost))
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping after -32050: %v", err)
	}
	if n := countState(a.snapshot(), Reconnecting); n != 0 {
		t.Fatalf("%d reconnects after a -32050 answer", n)
	}
	if c.seq.subscribed(chat) {
		t.Fatal("refused subscription is tracked")
	}
}

// A user re-issuing a request whose answer is above the receive ceiling
// gets a per-request error each time; the link recovers each time and never
// ends in Failed (the answer is not something the host re-sends by itself).
func TestReissuedOversizedAnswerIsPerRequest(t *testing.T) {
	_, url := startHost(t, ahphost.Options{NoToken: true})
	chat := bigChat(t, url, 21)
	o := testOptions(t, url)
	o.MaxFrameBytes = 64 << 10
	o.DisableChunking = true
	// What fails each attempt must be the oversized answer, not a ping the
	// harness's 400 ms would miss on a loaded machine (CI saw "no answer to
	// ping within 400ms" at load 20): this test is not about heartbeats.
	o.PingInterval, o.PingTimeout = 5*time.Second, 30*time.Second
	c, a := startClient(t, o)
	for i := 1; i <= 3; i++ {
		var err error
		retry(t, "subscribe", func(ctx context.Context) error {
			_, err = c.Subscribe(ctx, chat, nil)
			if errors.Is(err, ErrNotConnected) {
				return err
			}
			return nil
		})
		var ft *FrameTooLargeError
		if !errors.As(err, &ft) || !errors.Is(err, ErrConnectionLost) {
			t.Fatalf("attempt %d: Subscribe = %v, want *TransportError caused by *FrameTooLargeError", i, err)
		}
		a.waitFor("reconnected", 20*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= i+1 })
	}
	if n := countState(a.snapshot(), Failed); n != 0 {
		t.Fatalf("re-issued request failed the client: %s", describeTail(a.snapshot(), 6))
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

// A request above what the host accepts, toward a host that advertises no
// chunking: the host closes with 1009, the request fails with an Outbound
// *FrameTooLargeError, the client reconnects (not Failed), and re-issuing it
// (or dispatching something as large) fails locally, leaving the link up.
func TestOversizedRequestTwiceIsPerRequestError(t *testing.T) {
	const hostLimit = 64 << 10
	_, url := startHost(t, ahphost.Options{NoToken: true, MaxFrameBytes: hostLimit})
	p := newDropProxy(t, url, 0)
	p.stripCaps.Store(true)
	o := testOptions(t, p.URL())
	c, a := startClient(t, o)
	if c.State().HostChunking {
		t.Fatal("proxy did not hide the host's chunking capability")
	}
	big := ahpwire.Meta{"blob": json.RawMessage(`"` + strings.Repeat("y", 100<<10) + `"`)}
	params := ahpwire.CreateSessionParams{Channel: sessionURI(22), Provider: "demo", Meta: big}
	err := c.CreateSession(context.Background(), params)
	var ft *FrameTooLargeError
	if !errors.As(err, &ft) || !ft.Outbound || ft.Size <= 100<<10 || !errors.Is(err, ErrConnectionLost) {
		t.Fatalf("first CreateSession = %v, want a transport error with an outbound *FrameTooLargeError", err)
	}
	a.waitFor("reconnected", 20*time.Second, func(evs []Event) bool { return countState(evs, Connected) >= 2 })
	reconnects := countState(a.snapshot(), Reconnecting)
	err = c.CreateSession(context.Background(), params)
	if !errors.Is(err, ErrMessageTooLarge) || errors.Is(err, ErrConnectionLost) {
		t.Fatalf("second CreateSession = %v, want a local ErrMessageTooLarge", err)
	}
	if _, err := c.Dispatch(context.Background(), ahpwire.RootURI, &ahpwire.ChatTurnStarted{StartedAt: "2026-01-01T00:00:00.000Z", TurnID: "x", Message: ahpwire.UserMessage(strings.Repeat("z", 100<<10))}); !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("big Dispatch = %v, want a local ErrMessageTooLarge", err)
	}
	if err := c.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	// Smaller requests still go through.
	if err := c.CreateSession(context.Background(), ahpwire.CreateSessionParams{Channel: sessionURI(23), Provider: "demo"}); err != nil {
		t.Fatalf("small CreateSession: %v", err)
	}
	evs := a.snapshot()
	if n := countState(evs, Reconnecting); n != reconnects || countState(evs, Failed) != 0 {
		t.Fatalf("link dropped again or failed: %s", describeTail(evs, 6))
	}
}

// The persistent-oversize rule: two oversize failures in a row with no
// progress in serverSeq stop the client; progress in between restarts the
// count; failures attributed to an application request or to an outbound
// frame never count.
func TestPersistentOversizeRule(t *testing.T) {
	c, err := New(Options{URL: "ws://127.0.0.1:9", ClientID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	in := func() error { return &TransportError{Op: "x", Cause: &FrameTooLargeError{Limit: 1024}} }
	if c.stopReason(in()) != nil {
		t.Fatal("first oversize is fatal")
	}
	c.seq.noteProcessed(5) // progress: a different message may be large too
	if c.stopReason(in()) != nil {
		t.Fatal("oversize after progress is fatal")
	}
	for _, e := range []error{
		&FrameTooLargeError{Limit: 1024, userPending: true},
		&FrameTooLargeError{Remote: true, userPending: true},
		&FrameTooLargeError{Remote: true, Outbound: true, Size: 1 << 20},
	} {
		if c.stopReason(e) != nil {
			t.Fatalf("%v (per-request) is fatal", e)
		}
	}
	if err := c.stopReason(&MessageTooLargeError{Op: ahpwire.MethodInitialize}); err == nil || !errors.Is(err, ErrMessageTooLarge) {
		t.Fatalf("root-only initialize answered -32050 = %v, want a stop", err)
	}
	var pe *PersistentOversizeError
	if err := c.stopReason(&FrameTooLargeError{Remote: true}); !errors.As(err, &pe) || pe.LastSeenServerSeq != 5 || pe.Occurrences != 2 {
		t.Fatalf("second oversize at the same point = %v, want *PersistentOversizeError", err)
	}
}
