package testkit

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// LeakGrace is how long CheckNoLeak waits for goroutines to end.
const LeakGrace = 5 * time.Second

// Goroutines returns the number of goroutines running now: the baseline
// to give CheckNoLeak later.
func Goroutines() int { return runtime.NumGoroutine() }

// CheckNoLeak fails t if, within LeakGrace, the goroutine count does not
// drop back to at most before. The failure shows the stacks of this
// module's goroutines (and the WebSocket library's).
func CheckNoLeak(t testing.TB, before int) {
	t.Helper()
	checkNoLeak(t, before, runtime.NumGoroutine)
}

// GoroutinesExcept is Goroutines without the goroutines whose stack
// contains one of ignore: the baseline for CheckNoLeakExcept.
func GoroutinesExcept(ignore ...string) int {
	if len(ignore) == 0 {
		return Goroutines()
	}
	n := 0
	for _, g := range strings.Split(allStacks(), "\n\n") {
		if !containsAny(g, ignore) {
			n++
		}
	}
	return n
}

// CheckNoLeakExcept is CheckNoLeak not counting the goroutines whose
// stack contains one of ignore (say, a test's abandoned timer commands,
// which end by themselves): before comes from GoroutinesExcept(ignore...).
func CheckNoLeakExcept(t testing.TB, before int, ignore ...string) {
	t.Helper()
	checkNoLeak(t, before, func() int { return GoroutinesExcept(ignore...) })
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func checkNoLeak(t testing.TB, before int, count func() int) {
	t.Helper()
	deadline := time.Now().Add(LeakGrace)
	for {
		n := count()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutine leak: %d before, %d after\n%s", before, n, ourStacks())
		}
		time.Sleep(10 * time.Millisecond) // polling for goroutines to end, not for behaviour
	}
}

// LeakCheck takes the goroutine baseline now and checks it when the test
// ends (after the cleanups registered later, which run first).
func LeakCheck(t testing.TB) {
	t.Helper()
	before := Goroutines()
	t.Cleanup(func() { CheckNoLeak(t, before) })
}

// ourStacks returns the stacks of goroutines in this module or the
// WebSocket library, or all stacks if none match.
func ourStacks() string {
	all := allStacks()
	var out []string
	for _, g := range strings.Split(all, "\n\n") {
		if strings.Contains(g, "github.com/ahptui/ahptui") || strings.Contains(g, "coder/websocket") {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return all
	}
	return strings.Join(out, "\n\n")
}

// allStacks returns the stacks of every goroutine, one per paragraph,
// growing the buffer until none is cut short.
func allStacks() string {
	buf := make([]byte, 1<<20)
	size := runtime.Stack(buf, true)
	for size == len(buf) {
		buf = make([]byte, 2*len(buf))
		size = runtime.Stack(buf, true)
	}
	return string(buf[:size])
}
