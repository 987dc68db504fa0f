package redact_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
)

// recorder collects every log line and every string the client hands to
// the program (errors, states, events).
type recorder struct{ testkit.SyncBuffer }

func (r *recorder) add(format string, args ...any) { fmt.Fprintf(r, format+"\n", args...) }

// TestNoCredentialInAnyOutputOfASession runs a whole session (embedded
// demo host and client over loopback, a token in the query, a password in
// the URL's userinfo, debug logging on both sides, a turn, a dropped link
// and its reconnect, a wrong token and an unreachable host) and asserts
// that neither secret appears in any log line or any string the client
// produced.
func TestNoCredentialInAnyOutputOfASession(t *testing.T) {
	const token = "tok-Zx81-never-shown"
	const password = "pw-Qy72-never-shown"
	out := &recorder{}
	debug := &slog.HandlerOptions{Level: slog.LevelDebug}
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), Token: token,
		Logger: slog.New(slog.NewJSONHandler(out, debug)), KeepAlive: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	url, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(url, token) {
		t.Fatalf("connect URL carries no token")
	}
	withUser := strings.Replace(url, "ws://", "ws://alice:"+password+"@", 1)
	c, err := ahpclient.New(ahpclient.Options{URL: withUser, StateDir: t.TempDir(),
		Logger: slog.New(slog.NewTextHandler(out, debug))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start: %v", err)
	}
	out.add("url %s state %s", c.URL(), c.State())
	p := startPump(ctx, c, out)

	session := "ahp-session:/00000000-0000-4000-8000-000000000077"
	if err := c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: session, Provider: "demo"}); err != nil {
		t.Fatalf("create session: %v", err)
	}
	snap, err := c.Subscribe(ctx, session, nil)
	if err != nil {
		t.Fatalf("subscribe: %v", err)
	}
	p.setSession(snap)
	chat := p.waitChat(t)
	if _, err := c.Subscribe(ctx, chat, nil); err != nil {
		t.Fatalf("subscribe chat: %v", err)
	}
	turn := &ahpwire.ChatTurnStarted{TurnID: "t1", StartedAt: ahpstate.FormatTime(time.Now()),
		Message: ahpwire.UserMessage("hello")}
	if _, err := c.Dispatch(ctx, chat, turn); err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	p.waitTurnEnd(t, "t1")

	// A dead link and the reconnect that follows.
	h.DropAll()
	p.waitConnected(t, 2)
	out.add("after reconnect %s", c.State())
	_ = c.Close()

	// A wrong token, and an unreachable host with credentials in the URL.
	bad := strings.Replace(withUser, token, "wrong-"+token, 1)
	for _, u := range []string{bad, "ws://alice:" + password + "@" + deadAddr(t) + "/?tkn=" + token} {
		c2, err := ahpclient.New(ahpclient.Options{URL: u, StateDir: t.TempDir(),
			Logger: slog.New(slog.NewTextHandler(out, debug))})
		if err != nil {
			t.Fatal(err)
		}
		err = c2.Start(ctx)
		if err == nil {
			t.Fatalf("start against %s succeeded", c2.URL())
		}
		out.add("err %v / %+v / state %s / url %s", err, err, c2.State(), c2.URL())
		_ = c2.Close()
	}

	all := out.String()
	for _, secret := range []string{token, password} {
		if strings.Contains(all, secret) {
			i := strings.Index(all, secret)
			t.Errorf("secret %q appears in the output: …%s…", secret, all[max(0, i-200):min(len(all), i+100)])
		}
	}
	for _, want := range []string{"alice:***@", "client connected", "reconnect"} {
		if !strings.Contains(all, want) {
			t.Errorf("output lacks %q; the session did not run as expected:\n%s", want, all)
		}
	}
}

func deadAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := ln.Addr().String()
	_ = ln.Close()
	return a
}

// pump consumes the client's events, records them and keeps the state the
// test waits on.
type pump struct {
	mu        sync.Mutex
	session   ahpwire.SessionState
	uri       string
	ended     map[string]bool
	connected int
	changed   chan struct{}
}

func startPump(ctx context.Context, c *ahpclient.Client, out *recorder) *pump {
	p := &pump{ended: map[string]bool{}, changed: make(chan struct{}, 1)}
	go func() {
		for {
			ev, err := c.Next(ctx)
			if err != nil {
				out.add("next: %v", err)
				return
			}
			out.add("event %T %+v", ev, ev)
			p.apply(ev)
		}
	}()
	return p
}

func (p *pump) apply(ev ahpclient.Event) {
	p.mu.Lock()
	switch e := ev.(type) {
	case ahpclient.ConnStateEvent:
		if e.State.Phase == ahpclient.Connected {
			p.connected++
		}
	case ahpclient.EnvelopeEvent:
		if e.Envelope.Channel == p.uri {
			p.session = ahpstate.ReduceSession(p.session, e.Envelope.Action)
		}
		switch a := e.Envelope.Action.(type) {
		case *ahpwire.ChatTurnComplete:
			p.ended[a.TurnID] = true
		case *ahpwire.ChatTurnCancelled:
			p.ended[a.TurnID] = true
		}
	}
	p.mu.Unlock()
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

func (p *pump) setSession(s ahpwire.Snapshot) {
	p.mu.Lock()
	_ = json.Unmarshal(s.State, &p.session)
	p.uri = s.Resource
	p.mu.Unlock()
}

func (p *pump) wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-p.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (p *pump) waitChat(t *testing.T) (chat string) {
	p.wait(t, "a ready session with a chat", func() bool {
		if p.session.Lifecycle != ahpwire.LifecycleReady {
			return false
		}
		chat = p.session.DefaultChat
		if chat == "" && len(p.session.Chats) > 0 {
			chat = p.session.Chats[0].Resource
		}
		return chat != ""
	})
	return chat
}

func (p *pump) waitTurnEnd(t *testing.T, id string) {
	p.wait(t, "turn "+id, func() bool { return p.ended[id] })
}

func (p *pump) waitConnected(t *testing.T, n int) {
	p.wait(t, "reconnect", func() bool { return p.connected >= n })
}
