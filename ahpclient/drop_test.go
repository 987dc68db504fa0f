package ahpclient

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// sessionRun is the outcome of one scripted session.
type sessionRun struct {
	perChannel map[string][]string // channel kind → applied action JSON in order
	state      string
	frames     int64
	fired      bool
	reconnects int
	recoveries []Recovery
	problems   []string
}

var fixedClock = func() time.Time { return time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC) }

// volatile matches wall-clock fields the demo agent fills from the real
// clock; they are blanked before runs are compared.
var volatile = regexp.MustCompile(`"(modifiedAt|duration|createdAt|startedAt)":("[^"]*"|[0-9]+)`)

func normalize(s string) string { return volatile.ReplaceAllString(s, `"$1":0`) }

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// runDropSession runs the scripted session through a proxy that drops the
// first connection after dropAfter host→client frames (0 = never).
func runDropSession(t *testing.T, dir string, replayLog int, dropAfter int64) sessionRun {
	t.Helper()
	_, hostURL := startHost(t, ahphost.Options{NoToken: true, Dir: dir, Now: fixedClock, ReplayLog: replayLog})
	p := newDropProxy(t, hostURL, dropAfter)
	o := testOptions(t, p.URL())
	o.ClientID = "drop-test-client"
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	a := consumeApp(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatalf("Start: %v", err)
	}
	scriptedSession(t, c, a, sessionURI(1), "hello there")
	// Quiesce: the session catalog reports the chat idle again after the
	// turn (a separate envelope that follows the turn's end), and the host's
	// last action of a turn, session/isReadChanged(false) (a finished turn
	// marks the session unread), has been applied.
	deadline := time.Now().Add(10 * time.Second)
	for {
		idle := false
		a.withMirror(func(m *mirror) {
			s := m.sessions[sessionURI(1)]
			idle = len(s.Chats) > 0 && s.Chats[0].Status&ahpwire.StatusInProgress == 0 && !s.Status.Has(ahpwire.StatusIsRead)
		})
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session never became idle:%s", describeTail(a.snapshot(), 8))
		}
		time.Sleep(2 * time.Millisecond)
	}
	frames := p.frames.Load()
	if p.fired.Load() { // a drop after the last frame the script needed: wait for the recovery too
		a.waitFor("recovery after the drop", 20*time.Second, func(evs []Event) bool {
			for _, e := range evs {
				if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Connected && s.State.Recovery != RecoveryNone {
					return true
				}
			}
			return false
		})
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	a.drain(t)
	r := sessionRun{perChannel: map[string][]string{}, frames: frames, fired: p.fired.Load()}
	a.withMirror(func(m *mirror) {
		for _, ap := range m.applied {
			k := ahpstate.ChannelKind(ap.Channel)
			r.perChannel[k] = append(r.perChannel[k], normalize(ap.Action))
		}
		r.state = normalize(m.stateJSON())
		r.problems = m.problems
	})
	for _, e := range a.snapshot() {
		if s, ok := e.(ConnStateEvent); ok && s.State.Phase == Connected {
			r.recoveries = append(r.recoveries, s.State.Recovery)
			if s.State.Recovery != RecoveryNone {
				r.reconnects++
			}
		}
	}
	return r
}

// commonPrefix returns the length of the common prefix of a and b.
func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func TestDropAtEveryFrameBoundary(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/README.md", []byte("# demo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name      string
		replayLog int
	}{{"replay", 0}, {"snapshot", 1}} {
		t.Run(mode.name, func(t *testing.T) {
			base := runDropSession(t, dir, mode.replayLog, 0)
			if len(base.problems) > 0 || base.reconnects != 0 {
				t.Fatalf("baseline: problems %v, reconnects %d", base.problems, base.reconnects)
			}
			if len(base.perChannel[ahpstate.ScopeChat]) < 5 {
				t.Fatalf("baseline chat has only %d envelopes", len(base.perChannel[ahpstate.ScopeChat]))
			}
			t.Logf("baseline: %d host→client frames, chat envelopes %d", base.frames, len(base.perChannel[ahpstate.ScopeChat]))
			last := base.frames
			if s := os.Getenv("AHPCLIENT_DROP_POSITIONS"); s != "" {
				if n, err := strconv.Atoi(s); err == nil && n < int(last) {
					last = int64(n)
				}
			}
			used := map[Recovery]int{}
			defer func() {
				want := RecoveryReplay
				if mode.replayLog == 1 {
					want = RecoverySnapshot
				}
				if !t.Failed() && used[want] == 0 {
					t.Errorf("no run recovered by %v (recoveries %v)", want, used)
				}
				t.Logf("recoveries: %v", used)
			}()
			for pos := int64(1); pos <= last; pos++ {
				t.Run(fmt.Sprintf("after-frame-%d", pos), func(t *testing.T) {
					got := runDropSession(t, dir, mode.replayLog, pos)
					if !got.fired && got.frames < pos && pos > base.frames-3 {
						// This run's stream ended before position pos (runs
						// differ by a frame or two in root notifications).
						t.Logf("run had only %d frames; nothing to drop at %d", got.frames, pos)
						return
					}
					if !got.fired || got.reconnects < 1 {
						t.Fatalf("the drop did not happen or was not recovered: fired=%v reconnects=%d", got.fired, got.reconnects)
					}
					for _, r := range got.recoveries {
						used[r]++
					}
					if len(got.problems) > 0 {
						t.Fatalf("delivery problems: %v", got.problems)
					}
					if got.state != base.state {
						i := 0
						for i < len(got.state) && i < len(base.state) && got.state[i] == base.state[i] {
							i++
						}
						t.Fatalf("final state differs from the uninterrupted run at byte %d\n got: …%s\nwant: …%s", i, clip(got.state[max(0, i-100):]), clip(base.state[max(0, i-100):]))
					}
					for kind, want := range base.perChannel {
						have := got.perChannel[kind]
						if mode.replayLog == 0 || !slices.Contains(got.recoveries, RecoverySnapshot) {
							if !slices.Equal(have, want) {
								t.Fatalf("%s envelopes differ (recoveries %v):\n got %d\nwant %d", kind, got.recoveries, len(have), len(want))
							}
							continue
						}
						// Snapshot recovery: the envelopes the snapshot covers
						// are absent; everything else is identical and in order.
						p := commonPrefix(have, want)
						rest := have[p:]
						if len(have) > len(want) || !slices.Equal(rest, want[len(want)-len(rest):]) {
							t.Fatalf("%s envelopes are not the uninterrupted run minus one snapshot window (got %d, want %d, common prefix %d)", kind, len(have), len(want), p)
						}
					}
				})
			}
		})
	}
}
