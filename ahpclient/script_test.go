package ahpclient

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// appConsumer drains a client like an application would: it applies every
// event to a mirror (acknowledging envelopes by calling Next again) and
// keeps the raw event log.
type appConsumer struct {
	*consumer
	mmu sync.Mutex
	m   *mirror
}

func consumeApp(t testing.TB, c *Client) *appConsumer { return consumeAppSlow(t, c, 0) }

// consumeAppSlow is consumeApp with a pause before each event (a slow
// consumer).
func consumeAppSlow(t testing.TB, c *Client, pause time.Duration) *appConsumer {
	a := &appConsumer{m: newMirror()}
	ctx, cancel := context.WithCancel(context.Background())
	k := &consumer{t: t, c: c, cond: make(chan struct{}), done: make(chan struct{}), cancel: cancel}
	a.consumer = k
	go func() {
		defer close(k.done)
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				return
			}
			if pause > 0 {
				time.Sleep(pause)
			}
			a.mmu.Lock()
			a.m.apply(ev)
			a.mmu.Unlock()
			k.mu.Lock()
			k.events = append(k.events, ev)
			close(k.cond)
			k.cond = make(chan struct{})
			k.mu.Unlock()
		}
	}()
	t.Cleanup(k.stop)
	return a
}

// withMirror runs f with the mirror locked.
func (a *appConsumer) withMirror(f func(m *mirror)) {
	a.mmu.Lock()
	defer a.mmu.Unlock()
	f(a.m)
}

// turnFinished reports whether the mirrored chat holds turnID as a
// finished turn (from envelopes or from a snapshot).
func (a *appConsumer) turnFinished(chat, turnID string) bool {
	done := false
	a.withMirror(func(m *mirror) {
		cs, ok := m.chats[chat]
		if !ok || (cs.ActiveTurn != nil && cs.ActiveTurn.ID == turnID) {
			return
		}
		for _, tr := range cs.Turns {
			done = done || tr.ID == turnID
		}
	})
	return done
}

// retry runs f until it succeeds, treating connection problems as
// transient (the client is reconnecting), for at most 10 s.
func retry(t testing.TB, what string, f func(ctx context.Context) error) {
	t.Helper()
	retryWithin(t, what, 3*time.Second, 10*time.Second, f)
}

// retryWithin is retry with explicit bounds: each attempt gets perAttempt,
// and attempts stop being retried after total. A call that moves a lot of
// data (a large snapshot) needs a perAttempt sized for a slow, loaded
// -race run, or every attempt times out and starts the transfer over.
func retryWithin(t testing.TB, what string, perAttempt, total time.Duration, f func(ctx context.Context) error) {
	t.Helper()
	deadline := time.Now().Add(total)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), perAttempt)
		err := f(ctx)
		cancel()
		if err == nil {
			return
		}
		transient := errors.Is(err, ErrNotConnected) || errors.Is(err, ErrConnectionLost) || errors.Is(err, context.DeadlineExceeded)
		if !transient || time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// scriptedSession drives one deterministic session: create a session,
// subscribe to it and its default chat, send text and wait for the turn to
// end. It survives connection drops at any point (retries, SessionAlreadyExists
// after a lost reply, resend of an uncertain dispatch the host never saw).
func scriptedSession(t testing.TB, c *Client, a *appConsumer, session, text string) (chat string) {
	t.Helper()
	chat = openSession(t, c, a, session)
	runTurn(t, c, a, chat, "turn-1", text)
	return chat
}

// openSession creates session, subscribes to it and to its default chat,
// and returns the chat URI.
func openSession(t testing.TB, c *Client, a *appConsumer, session string) (chat string) {
	t.Helper()
	retry(t, "createSession", func(ctx context.Context) error {
		err := c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: session, Provider: "demo"})
		if code, ok := ErrorCode(err); ok && code == ahpwire.CodeSessionAlreadyExists {
			return nil
		}
		return err
	})
	subscribe := func(ch string) {
		retry(t, "subscribe "+ch, func(ctx context.Context) error {
			if c.seq.subscribed(ch) {
				return nil // resumed by a reconnect meanwhile
			}
			_, err := c.Subscribe(ctx, ch, nil)
			return err
		})
	}
	subscribe(session)
	deadline := time.Now().Add(10 * time.Second)
	for chat == "" {
		a.withMirror(func(m *mirror) {
			if s, ok := m.sessions[session]; ok && s.Lifecycle == "ready" {
				chat = s.DefaultChat
				if chat == "" && len(s.Chats) > 0 {
					chat = s.Chats[0].Resource
				}
			}
		})
		if time.Now().After(deadline) {
			t.Fatalf("session %s never became ready with a chat", session)
		}
		if chat == "" {
			time.Sleep(2 * time.Millisecond)
		}
	}
	subscribe(chat)
	return chat
}

// runTurn sends text as turn turnID on chat and waits for the turn to end.
func runTurn(t testing.TB, c *Client, a *appConsumer, chat, turnID, text string) {
	t.Helper()
	turn := &ahpwire.ChatTurnStarted{TurnID: turnID, StartedAt: "2026-11-22T00:00:00.000Z", Message: ahpwire.UserMessage(text)}
	var seq uint64
	retry(t, "dispatch", func(ctx context.Context) error {
		var err error
		seq, err = c.Dispatch(ctx, chat, turn)
		return err
	})
	// Wait for the turn to end; resend only an entry the host provably
	// never saw (still uncertain after a completed replay reconnect).
	deadline := time.Now().Add(60 * time.Second)
	var uncertainSince time.Time
	for !a.turnFinished(chat, turn.TurnID) {
		e, ok := c.ob.get(seq)
		if !ok || e.Status != OutboxUncertain || c.State().Phase != Connected {
			uncertainSince = time.Time{}
		} else if uncertainSince.IsZero() {
			uncertainSince = time.Now()
		} else if time.Since(uncertainSince) > 200*time.Millisecond {
			seen := false
			a.withMirror(func(m *mirror) {
				if cs, ok := m.chats[chat]; ok {
					for _, tr := range cs.Turns {
						seen = seen || tr.ID == turn.TurnID
					}
					seen = seen || (cs.ActiveTurn != nil && cs.ActiveTurn.ID == turn.TurnID)
				}
				for _, ap := range m.applied {
					seen = seen || (ap.Channel == chat && ap.Type == ahpwire.ActionChatTurnStarted && strings.Contains(ap.Action, turnID))
				}
			})
			if !seen && c.State().Recovery == RecoveryReplay {
				ns, err := c.Resend(context.Background(), seq)
				if err != nil {
					t.Fatalf("resend: %v", err)
				}
				seq = ns
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("turn never finished; events:%s", describeTail(a.snapshot(), 12))
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func sessionURI(i int) string { return fmt.Sprintf("ahp-session:/00000000-0000-4000-8000-%012d", i) }
