package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahphost"
	cfgfile "github.com/ahptui/ahptui/internal/config"
	"github.com/ahptui/ahptui/internal/testkit"
	"github.com/ahptui/ahptui/tui"
)

// The inbox at scale: 20 configured hosts on loopback, 17 with 50
// sessions each and 3 that accept connections and never answer. Plain
// `ahptui`'s model (hosts dialled as runInboxUI dials them) runs as Bubble
// Tea runs it: every command on a goroutine, messages applied one at a
// time. Measured: the time until every live host's sessions are listed,
// and, once they are, one key's Update+View (responsiveness).

const (
	inboxBenchHosts    = 20
	inboxBenchSilent   = 3
	inboxBenchSessions = 50
)

// inboxFleet starts the hosts and writes the config naming them.
func inboxFleet(tb testing.TB) *cfgfile.File {
	tb.Helper()
	var doc strings.Builder
	for i := range inboxBenchHosts {
		addr := ""
		if i%7 == 3 && i/7 < inboxBenchSilent { // hosts 3, 10, 17: silent
			addr = testkit.SilentListener(tb)
		} else {
			h, err := ahphost.New(ahphost.Options{Dir: tb.TempDir(), Token: execToken})
			if err != nil {
				tb.Fatal(err)
			}
			tb.Cleanup(func() { _ = h.Close() })
			u, err := h.Listen("127.0.0.1:0")
			if err != nil {
				tb.Fatal(err)
			}
			addr = hostOfURL(u)
			for j := range inboxBenchSessions {
				if _, err := h.SeedSession(fmt.Sprintf("ahp-session:/h%02d-s%02d", i, j), nil); err != nil {
					tb.Fatal(err)
				}
			}
		}
		fmt.Fprintf(&doc, "[hosts.h%02d]\nurl = \"ws://%s/\"\ntoken_env = \"FLEET_TOKEN\"\n", i, addr)
	}
	path := filepath.Join(tb.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(doc.String()), 0o600); err != nil {
		tb.Fatal(err)
	}
	f, err := cfgfile.Parse(path, []byte(doc.String()))
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// inboxRig runs a model like tea.Program does.
type inboxRig struct {
	m    tea.Model
	msgs chan tea.Msg
	done chan struct{}
}

func (r *inboxRig) run(cmd tea.Cmd) {
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

// apply feeds one message to the model.
func (r *inboxRig) apply(msg tea.Msg) {
	switch msg.(type) {
	case nil, tea.QuitMsg, tea.RawMsg:
		return
	}
	nm, cmd := r.m.Update(msg)
	r.m = nm
	r.run(cmd)
}

// until applies messages until the screen matches cond or d passes. The
// screen is drawn as Bubble Tea draws it: at most once a frame (60 fps),
// and when no message waits.
func (r *inboxRig) until(d time.Duration, cond func(screen string) bool) bool {
	deadline := time.After(d)
	drawn := time.Time{}
	for {
		if len(r.msgs) == 0 || time.Since(drawn) >= time.Second/60 {
			drawn = time.Now()
			if cond(ansi.Strip(r.m.View().Content)) {
				return true
			}
		}
		select {
		case msg := <-r.msgs:
			r.apply(msg)
		case <-deadline:
			return false
		}
	}
}

// openInbox builds plain `ahptui`'s inbox model over f and runs it until
// every live host's sessions are listed; it returns the rig and the time
// that took.
func openInbox(tb testing.TB, f *cfgfile.File) (*inboxRig, time.Duration, func()) {
	tb.Helper()
	tb.Setenv("FLEET_TOKEN", execToken)
	cfg := config{hostFile: f}
	var hs hostSet
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	start := time.Now()
	m := tui.New(tui.Options{Hosts: hs.options(cfg, f, tb.TempDir(), log), Host: "inbox", Context: ctx, Dark: true, NoMouse: true})
	r := &inboxRig{m: m, msgs: make(chan tea.Msg, 256), done: make(chan struct{})}
	r.apply(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.run(r.m.Init())
	want := fmt.Sprintf("Sessions  %d", (inboxBenchHosts-inboxBenchSilent)*inboxBenchSessions)
	if !r.until(30*time.Second, func(s string) bool { return strings.Contains(s, want) }) {
		tb.Fatalf("the inbox never listed every live host's sessions (%q):\n%s", want, ansi.Strip(r.m.View().Content))
	}
	took := time.Since(start)
	return r, took, func() { close(r.done); cancel(); hs.close() }
}

// keyTime is one key's Update and View on the loaded inbox.
func keyTime(r *inboxRig, key string) time.Duration {
	start := time.Now()
	r.apply(testkit.KeyPress(key))
	_ = r.m.View()
	return time.Since(start)
}

// TestInboxOpensAtScale: 20 hosts × 50 sessions, 3 hosts silent: every
// live host's sessions are listed (the silent ones hold nothing up) and
// the loaded list takes keys. The budgets (≤ 1 s to list, ≤ 50 ms a key)
// are BenchmarkInboxOpen20x50's: a timed test fails on a loaded machine.
func TestInboxOpensAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("20 hosts")
	}
	f := inboxFleet(t)
	r, took, stop := openInbox(t, f)
	defer stop()
	for _, k := range []string{"down", "down", "up", "pgdown", "end", "home"} {
		keyTime(r, k)
	}
	want := fmt.Sprintf("Sessions  %d", (inboxBenchHosts-inboxBenchSilent)*inboxBenchSessions)
	if v := ansi.Strip(r.m.View().Content); !strings.Contains(v, want) {
		t.Fatalf("after the keys the inbox lost its sessions (%q):\n%s", want, v)
	}
	t.Logf("open %v", took)
}

// BenchmarkInboxOpen20x50 measures opening the inbox over 20 hosts × 50
// sessions (3 hosts silent) and one key on the loaded list.
func BenchmarkInboxOpen20x50(b *testing.B) {
	f := inboxFleet(b)
	var open, key time.Duration
	for b.Loop() {
		r, took, stop := openInbox(b, f)
		open += took
		key += keyTime(r, "down")
		stop()
	}
	b.ReportMetric(float64(open.Milliseconds())/float64(b.N), "open-ms/op")
	b.ReportMetric(float64(key.Microseconds())/float64(b.N), "key-µs/op")
}
