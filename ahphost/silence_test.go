package ahphost

import (
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// TestSilentFaultFromOptions: Faults{SilentAfter: 150ms, SilentFor: 800ms}
// (serve's --silent-after/--silent-for) make the host go silent 150ms after it starts
// listening, for 800ms: a ping sent during the silence is answered only
// after it, on the same connection (no close).
func TestSilentFaultFromOptions(t *testing.T) {
	t0 := time.Now()
	h, u := startHost(t, Options{NoToken: true, Faults: Faults{SilentAfter: 150 * time.Millisecond, SilentFor: 800 * time.Millisecond}})
	w := dial(t, u, nil)
	w.initialize("c1", nil, nil)
	waitUntil(t, "silence", func() bool { return h.silentUntil.Load() != 0 })
	sent := time.Now()
	end := time.Unix(0, h.silentUntil.Load())
	if began := end.Add(-800 * time.Millisecond); began.Before(t0.Add(150 * time.Millisecond)) {
		t.Fatalf("silence began %v after the host was started, want ≥ 150ms", began.Sub(t0))
	}
	if !sent.Before(end) {
		t.Fatalf("machine too slow: the ping could only be sent %v after the silence ended", sent.Sub(end))
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"})
	if got := time.Now(); got.Before(end) {
		t.Fatalf("ping answered %v before the silence ended", end.Sub(got))
	}
	w.call("ping", map[string]any{"channel": "ahp-root://"}) // the connection continues
}

// TestSilentFaultOptions: validation, and a pending silence timer does not
// outlive Close.
func TestSilentFaultOptions(t *testing.T) {
	for name, f := range map[string]Faults{
		"after without for": {SilentAfter: time.Second},
		"negative for":      {SilentFor: -time.Second},
		"negative after":    {SilentAfter: -time.Second, SilentFor: time.Second},
		"negative drop":     {DropAfterFrames: -1},
	} {
		if _, err := New(Options{NoToken: true, Dir: t.TempDir(), Faults: f}); err == nil {
			t.Errorf("%s: New accepted %+v", name, f)
		}
	}
	before := testkit.Goroutines()
	h, err := New(Options{NoToken: true, Dir: t.TempDir(), Faults: Faults{SilentAfter: time.Hour, SilentFor: time.Second}})
	must(t, err)
	if _, err := h.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = h.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(testTimeout):
		t.Fatal("Close waits for the silence timer")
	}
	if h.silentUntil.Load() != 0 {
		t.Fatal("silence started")
	}
	testkit.CheckNoLeak(t, before)
}
