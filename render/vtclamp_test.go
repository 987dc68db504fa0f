package render

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestCSIClamp: counts of cursor, erase and repeat sequences are clamped
// to maxCSICount, in one write or split across writes; private modes,
// small counts and UTF-8 text pass unchanged (issue 24 item 7).
func TestCSIClamp(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"A\x1b[99999999b"}, "A\x1b[1000b"},
		{[]string{"\x1b[99999999X\x1b[5;99999999H"}, "\x1b[1000X\x1b[5;1000H"},
		{[]string{"x\x1b", "[9999", "9999X", "y"}, "x\x1b[1000Xy"},
		{[]string{"\u009b99999999X"}, "\u009b1000X"},
		{[]string{"\x1b[?1049h\x1b[?2004h\x1b[38;2;255;0;0m\x1b[12;40H"}, "\x1b[?1049h\x1b[?2004h\x1b[38;2;255;0;0m\x1b[12;40H"},
		{[]string{"ěšč \x1b]0;title\x07 \x1bM"}, "ěšč \x1b]0;title\x07 \x1bM"},
	}
	for _, c := range cases {
		var cl csiClamp
		var got strings.Builder
		for _, s := range c.in {
			got.WriteString(cl.filter(s))
		}
		if got.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got.String(), c.want)
		}
	}
}

// TestHugeVTCountsAreBounded: ESC[99999999b (repeat the last character a
// hundred million times) and ESC[99999999X reach the emulator clamped, so
// the screen holds a thousand characters, not a hundred million scrolled
// through the scrollback (23.6 s before the fix); a flood of output waits
// for the next frame, at most maxReplay bytes of it (issue 24 item 7).
func TestHugeVTCountsAreBounded(t *testing.T) {
	lt := NewLiveTerminal(ahpwire.TerminalState{}, true)
	st := lt.State()
	lt.Apply(st, &ahpwire.TerminalData{Data: "A\x1b[99999999b" + strings.Repeat("\x1b[99999999X", 200)})
	if n := lt.LineCount(); n > 24 {
		t.Fatalf("%d lines after one repeat sequence", n)
	}
	lf := strings.Repeat("\n", 1<<20)
	for range 64 {
		lt.Apply(st, &ahpwire.TerminalData{Data: lf})
		if n := strings.Count(string(lt.pending), "\n"); len(lt.pending) > maxReplay || n > 2*maxQueuedLines {
			t.Fatalf("%d bytes, %d lines queued for the emulator", len(lt.pending), n)
		}
	}
}

// BenchmarkLiveTerminalFloodFrame is one frame's work after a flood of
// line feeds: at most maxReplay bytes reach the emulator.
func BenchmarkLiveTerminalFloodFrame(b *testing.B) {
	lt := NewLiveTerminal(ahpwire.TerminalState{}, true)
	st := lt.State()
	lf := strings.Repeat("line\n", 1<<20/5)
	for b.Loop() {
		lt.Apply(st, &ahpwire.TerminalData{Data: lf})
		_ = lt.LineCount()
	}
}

// BenchmarkHugeVTCounts feeds the 13-byte "A ESC[99999999b" (23.6 s before
// issue 24 item 7) and draws.
func BenchmarkHugeVTCounts(b *testing.B) {
	lt := NewLiveTerminal(ahpwire.TerminalState{}, true)
	st := lt.State()
	for b.Loop() {
		lt.Apply(st, &ahpwire.TerminalData{Data: "A\x1b[99999999b"})
		_ = lt.LineCount()
	}
}

// TestFrameWorkIsBounded: output whose sequences would cost the emulator
// more than frameCost cells in one frame is cut to its newest part that
// fits (8,192 × "A ESC[1000b" in 64 KiB cost 12.6 s before), and ordinary
// output within the budget passes whole (issue 24 item 7).
func TestFrameWorkIsBounded(t *testing.T) {
	flood := strings.Repeat("A\x1b[1000b", 8192)
	tail, cut := frameTail(flood)
	if !cut || len(tail) == 0 || len(tail) > frameCost/1000*len("A\x1b[1000b") || !strings.HasSuffix(flood, tail) {
		t.Fatalf("cut=%v, %d bytes kept", cut, len(tail))
	}
	log := strings.Repeat("ok  some/package  0.1s\n", 1000)
	if got, cut := frameTail(log); cut || got != log {
		t.Fatal("ordinary output was cut")
	}
	lines := strings.Repeat("0123456789\n", 10000)
	if got, cut := frameTail(lines); !cut || !strings.HasPrefix(got, "0123456789\n") || len(got) > frameCost {
		t.Fatalf("not cut at a line start: %q…", got[:min(20, len(got))])
	}
}
