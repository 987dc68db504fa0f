package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/tui/app"
)

// asyncRig runs a model like tea.Program: commands on goroutines, their
// messages applied one at a time; raw output (notifications) is recorded.
type asyncRig struct {
	t    *testing.T
	m    Model
	msgs chan tea.Msg
	done chan struct{}
	raws []string
}

func newAsyncRig(t *testing.T, m Model) *asyncRig {
	r := &asyncRig{t: t, m: m, msgs: make(chan tea.Msg, 64), done: make(chan struct{})}
	t.Cleanup(func() { close(r.done) })
	nm, cmd := r.m.Update(teaSize(100, 30))
	r.m = nm.(Model)
	r.run(cmd)
	r.run(r.m.Init())
	return r
}

func (r *asyncRig) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				r.run(c)
			}
			return
		}
		select {
		case r.msgs <- msg:
		case <-r.done:
		}
	}()
}

// until applies messages until cond holds (or fails after d).
func (r *asyncRig) until(what string, d time.Duration, cond func(m Model) bool) {
	r.t.Helper()
	deadline := time.After(d)
	for !cond(r.m) {
		select {
		case msg := <-r.msgs:
			switch msg := msg.(type) {
			case tea.RawMsg:
				s, _ := msg.Msg.(string)
				r.raws = append(r.raws, s)
				continue
			case nil, tea.QuitMsg:
				continue
			}
			if !isOurMsg(msg) {
				continue
			}
			nm, cmd := r.m.Update(msg)
			r.m = nm.(Model)
			r.run(cmd)
		case <-deadline:
			r.t.Fatalf("timed out waiting for %s:\n%s", what, viewText(r.m))
		}
	}
}

// startEmbedded starts an embedded demo host on 127.0.0.1.
func startEmbedded(t *testing.T) (string, *ahphost.Host) {
	t.Helper()
	h, err := ahphost.New(ahphost.Options{Dir: t.TempDir(), NoToken: true, Pace: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	u, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return u, h
}

// silentListener is a host that accepts connections and never answers.
func silentListener(t *testing.T) string {
	return "ws://" + testkit.SilentListener(t) + "/"
}

// dialLive starts a real client on u (closed at cleanup).
func dialLive(t *testing.T, ctx context.Context, u string) (*ahpclient.Client, error) {
	c, err := ahpclient.New(ahpclient.Options{URL: u, StateDir: t.TempDir(), ExplicitAck: true})
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// startTurn creates a session on c and sends prompt in its chat, as
// another client of the host would.
func startTurn(t *testing.T, c *ahpclient.Client, id, prompt string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	uri := "ahp-session:/" + id
	if err := c.CreateSession(ctx, ahpwire.CreateSessionParams{Channel: uri, Provider: "demo"}); err != nil {
		t.Fatal(err)
	}
	chat := ""
	for chat == "" {
		snap, err := c.Subscribe(ctx, uri, nil)
		if err != nil {
			t.Fatal(err)
		}
		ss, err := ahpwire.DecodeSessionState(snap.State)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case ss.DefaultChat != "":
			chat = ss.DefaultChat
		case len(ss.Chats) > 0:
			chat = ss.Chats[0].Resource
		default:
			time.Sleep(20 * time.Millisecond) // the session is still being created
		}
	}
	if _, err := c.Subscribe(ctx, chat, nil); err != nil {
		t.Fatal(err)
	}
	a := &ahpwire.ChatTurnStarted{TurnID: id + "-t1", StartedAt: time.Now().UTC().Format(time.RFC3339Nano), Message: ahpwire.UserMessage(prompt)}
	if _, err := c.Dispatch(ctx, chat, a); err != nil {
		t.Fatal(err)
	}
}

// TestInboxLiveHosts: with hosts a (attached), b and c (never answers),
// b's sessions appear while c is still connecting; a session of b that
// starts asking a question rings once (and not again while the host sends
// more about b); enter on it attaches to b over b's own connection and
// shows the question.
func TestInboxLiveHosts(t *testing.T) {
	ua, _ := startEmbedded(t)
	ub, _ := startEmbedded(t)
	uc := silentListener(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // before the cleanups: the UI's commands end first
	ca, err := dialLive(t, ctx, ua)
	if err != nil {
		t.Fatal(err)
	}
	other, err := dialLive(t, ctx, ub) // another client of b
	if err != nil {
		t.Fatal(err)
	}
	startTurn(t, other, "first", "hello")
	var cb app.Backend
	m := newModel(Options{
		Backend: ca, HostName: "a", Host: "a", Dark: true, Context: ctx, Notify: &NotifyOptions{Bell: true, Desktop: "osc9"},
		FrameInterval: time.Millisecond, NoticeTTL: time.Hour,
		Hosts: []HostOption{
			{Name: "a", Label: "a"},
			{Name: "b", Label: "b", Connect: func(ctx context.Context) (app.Backend, error) {
				c, err := dialLive(t, ctx, ub)
				if c == nil {
					return nil, err
				}
				cb = c
				return c, err
			}},
			{Name: "c", Label: "c", Connect: func(ctx context.Context) (app.Backend, error) {
				cctx, stop := context.WithTimeout(ctx, time.Minute)
				defer stop()
				c, err := dialLive(t, cctx, uc)
				if c == nil {
					return nil, err
				}
				return c, err
			}},
		},
	})
	r := newAsyncRig(t, m)
	r.until("b's session while c still connects", 20*time.Second, func(m Model) bool {
		_, ok := m.picker.HostSession("b", "ahp-session:/first")
		v := viewText(m)
		return ok && strings.Contains(v, "@b  connected") && strings.Contains(v, "@a  connected · attached")
	})
	if v := viewText(r.m); !strings.Contains(v, "@c  connecting…") {
		t.Fatalf("c is not connecting:\n%s", v)
	}
	// Another client starts a turn on b that asks: one notification.
	startTurn(t, other, "second", "/demo input")
	r.until("the second session's question", 20*time.Second, func(m Model) bool {
		s, ok := m.picker.HostSession("b", "ahp-session:/second")
		return ok && s.Status.Activity() == ahpwire.StatusInputNeeded
	})
	asks := func() int {
		n := 0
		for _, s := range r.raws {
			if strings.Contains(s, "/demo input on @b needs you") {
				n++
			}
		}
		return n
	}
	r.until("its notification", 5*time.Second, func(Model) bool { return asks() > 0 })
	// Everything else the host sends about it (title, read state) passes
	// without another one.
	startTurn(t, other, "third", "hello")
	r.until("a third session", 20*time.Second, func(m Model) bool {
		s, ok := m.picker.HostSession("b", "ahp-session:/third")
		return ok && s.Status.Activity() == ahpwire.StatusIdle
	})
	if asks() != 1 {
		t.Fatalf("notifications %q", r.raws)
	}
	// Enter on b's first session: attached to b, the question on screen.
	p := &r.m.picker
	for i, mt := range p.Shown {
		if e := p.Entries[mt.Index]; e.Host == "b" && e.Summary.Resource == "ahp-session:/second" {
			p.Cursor = i
		}
	}
	nm, cmd := r.m.Update(keyPress("enter"))
	r.m = nm.(Model)
	r.run(cmd)
	r.until("the question of b's session", 20*time.Second, func(m Model) bool {
		return m.screen == screenChat && m.here() == "b" && strings.Contains(viewText(m), "The agent asks")
	})
	if r.m.c.Backend != cb {
		t.Fatalf("attached backend %T is not b's connection", r.m.c.Backend)
	}
}
