package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/dialog"
)

// liveBackend is a real client whose Next is driven by the test itself, so
// the model's pump command never competes for events.
type liveBackend struct{ *ahpclient.Client }

func (liveBackend) Next(context.Context) (ahpclient.Event, error) { return nil, context.Canceled }

func (liveBackend) NextBatch(_ context.Context, dst []ahpclient.Event, _ int) ([]ahpclient.Event, error) {
	return dst, context.Canceled
}

type liveRig struct {
	t      testing.TB
	host   *ahphost.Host
	client *ahpclient.Client
	m      Model
}

func newLiveRig(t testing.TB, replayLog int) *liveRig {
	t.Helper()
	return startLiveRig(t, ahphost.Options{Dir: t.TempDir(), NoToken: true, Pace: time.Millisecond, ReplayLog: replayLog})
}

// abandonedTicks marks the goroutines of timer commands runCmds gave up
// waiting for (a status or retry tick of up to a second): they end by
// themselves, so the leak check need not wait for them.
const abandonedTicks = "charm.land/bubbletea/v2.Tick"

// startLiveRig starts the embedded host with opts on 127.0.0.1, a real
// client on it and the TUI at 100×30; cleanup closes both and checks for
// leaked goroutines.
func startLiveRig(t testing.TB, opts ahphost.Options) *liveRig {
	t.Helper()
	before := testkit.GoroutinesExcept(abandonedTicks)
	h, err := ahphost.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	url, err := h.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ahpclient.New(ahpclient.Options{URL: url, StateDir: t.TempDir(), ExplicitAck: true,
		Backoff: ahpclient.BackoffPolicy{Initial: 20 * time.Millisecond, Max: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	r := &liveRig{t: t, host: h, client: c}
	t.Cleanup(func() {
		_ = c.Close()
		_ = h.Close()
		testkit.CheckNoLeakExcept(t, before, abandonedTicks)
	})
	r.m = newModel(Options{Backend: liveBackend{c}, Host: "test", Dark: true, FrameInterval: time.Nanosecond, NoticeTTL: time.Nanosecond})
	r.m = send(t, r.m, teaSize(100, 30))
	return r
}

// pump feeds client events to the model until cond holds (the timeout
// only turns a hang into a failure: generous for -race on a loaded machine).
func (r *liveRig) pump(what string, cond func(m Model) bool) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for !cond(r.m) {
		ev, err := r.next(ctx)
		if err != nil {
			r.t.Fatalf("waiting for %s: %v\n%s", what, err, viewText(r.m))
		}
		if ev == nil { // a command's late result
			r.m = sendLate(r.t, r.m)
			continue
		}
		if env, ok := ev.(ahpclient.EnvelopeEvent); ok {
			before := r.client.LastSeenServerSeq()
			if before >= env.Envelope.ServerSeq {
				r.t.Fatalf("seq %d acknowledged before it was applied (lastSeen %d)", env.Envelope.ServerSeq, before)
			}
			r.m = send(r.t, r.m, connEventMsg{ev: ev})
			if after := r.client.LastSeenServerSeq(); after < env.Envelope.ServerSeq {
				r.t.Fatalf("seq %d not acknowledged after it was applied (lastSeen %d)", env.Envelope.ServerSeq, after)
			}
			continue
		}
		r.m = send(r.t, r.m, connEventMsg{ev: ev})
	}
}

// next waits for the client's next event, or returns a nil event as soon
// as a command's result came late (on a loaded machine a request can
// outlive runCmds' wait: waiting on the client alone would wait for it in
// vain).
func (r *liveRig) next(ctx context.Context) (ahpclient.Event, error) {
	late := lateFor(r.t).wait()
	select {
	case <-late:
		return nil, nil
	default:
	}
	ectx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-late:
			stop()
		case <-ectx.Done():
		}
	}()
	ev, err := r.client.Next(ectx)
	if err != nil && ctx.Err() == nil && ectx.Err() != nil {
		return nil, nil // woken by a late result
	}
	return ev, err
}

// newSession presses ctrl+n and accepts the session form's defaults.
func (r *liveRig) newSession() {
	r.t.Helper()
	r.m = send(r.t, r.m, keyPress("ctrl+n"))
	if r.m.topConfigForm() == nil {
		r.t.Fatalf("no session form:\n%s", viewText(r.m))
	}
	r.m = send(r.t, r.m, keyPress("enter"))
	if r.m.topConfigForm() != nil {
		r.t.Fatalf("the session form stayed open:\n%s", viewText(r.m))
	}
}

func lastAssistant(m Model) *reducer.Message {
	if m.chat == nil {
		return nil
	}
	ms := m.chat.State.Messages
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == reducer.RoleAssistant {
			return ms[i]
		}
	}
	return nil
}

func TestLiveSessionTurnAndReconnect(t *testing.T) {
	// replayLog 0: the host replays missed envelopes; 1: it cannot, and the
	// client rebuilds the chat from a snapshot.
	for _, c := range []struct {
		name      string
		replayLog int
	}{{"replay", 0}, {"snapshot", 1}} {
		t.Run(c.name, func(t *testing.T) { liveTurnAndReconnect(t, c.replayLog) })
	}
}

func liveTurnAndReconnect(t *testing.T, replayLog int) {
	r := newLiveRig(t, replayLog)
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })

	r.m = typeText(t, r.m, "hello from a live test")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("answer", func(m Model) bool {
		a := lastAssistant(m)
		return a != nil && strings.Contains(a.Text(), "to see what else it can do")
	})
	if !strings.Contains(viewText(r.m), "scripted ahptui demo agent") {
		t.Fatalf("answer not on screen:\n%s", viewText(r.m))
	}

	// A slow turn; drop the link in the middle of it.
	r.m = typeText(t, r.m, "/demo slow 40")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("slow turn started", func(m Model) bool {
		return m.chat.State.Current != nil && strings.Contains(m.chat.State.Current.Text(), "line 5 of 40")
	})
	r.host.DropAll()
	r.pump("reconnecting", func(m Model) bool { return m.conn.Phase == ahpclient.Reconnecting })
	r.pump("reconnected", func(m Model) bool { return m.conn.Phase == ahpclient.Connected })
	t.Logf("recovered by %s", r.m.conn.Recovery)
	r.pump("slow turn finished", func(m Model) bool {
		a := lastAssistant(m)
		return m.chat.State.Current == nil && a != nil && strings.Contains(a.Text(), "line 40 of 40")
	})
	text := lastAssistant(r.m).Text()
	for _, l := range []string{"line 2 of 40", "line 20 of 40", "line 40 of 40"} {
		if n := strings.Count(text, l); n != 1 {
			t.Errorf("%q appears %d times after the reconnect", l, n)
		}
	}
	if !strings.Contains(viewText(r.m), "line 40 of 40") {
		t.Fatalf("end of the slow answer not on screen:\n%s", viewText(r.m))
	}
	// The earlier turn survived too.
	if r.m.chat.State.Messages[0].Text() != "hello from a live test" {
		t.Fatalf("first message changed: %q", r.m.chat.State.Messages[0].Text())
	}
}

func TestLiveCancelAndApprove(t *testing.T) {
	r := newLiveRig(t, 0)
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })

	// The UI's clock moves only when the test moves it: the first prompt
	// opens "just after" the typing, whatever the machine's speed.
	clock := time.Now()
	r.m.c.Now = func() time.Time { return clock }
	r.m = typeText(t, r.m, "/demo tools")
	r.m = send(t, r.m, keyPress("enter"))
	for i := 0; i < 3; i++ {
		r.pump("approval prompt", func(m Model) bool { return len(m.overlays) > 0 })
		// The first prompt opens while the user has just typed: an "a" at
		// once is taken as typing, not as a decision (typing guard).
		p, ok := r.m.overlays[len(r.m.overlays)-1].(*dialog.Approval)
		if !ok {
			t.Fatalf("overlay %T, want the approval prompt", r.m.overlays[len(r.m.overlays)-1])
		}
		if i == 0 && !p.Guarded() {
			t.Fatal("the prompt that opened as the user typed is not guarded")
		}
		if p.Guarded() {
			r.m = send(t, r.m, keyPress("a"))
			if len(r.m.overlays) == 0 {
				t.Fatal("an a typed just as the prompt opened approved the tool")
			}
			clock = clock.Add(time.Minute) // the guard is over
			if p.Guarded() {
				t.Fatal("the guard outlived its time")
			}
		}
		r.m = send(t, r.m, keyPress("a"))
		r.pump("prompt closed", func(m Model) bool { return len(m.overlays) == 0 })
	}
	r.pump("tools turn done", func(m Model) bool { return m.chat.State.Current == nil && len(m.chat.State.Messages) >= 2 })
	if a := lastAssistant(r.m); a.Status != reducer.StatusComplete {
		t.Fatalf("tools turn ended %v", a.Status)
	}

	r.m = typeText(t, r.m, "/demo slow 500")
	r.m = send(t, r.m, keyPress("enter"))
	r.pump("slow started", func(m Model) bool { return m.chat.State.Current != nil })
	r.m = send(t, r.m, keyPress("esc"))
	r.pump("cancelled", func(m Model) bool {
		a := lastAssistant(m)
		return m.chat.State.Current == nil && a != nil && a.Status == reducer.StatusCancelled
	})
}
