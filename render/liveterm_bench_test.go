package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// hostileOutput builds about n bytes of terminal output mixing coloured
// lines, progress redraws and every hostile sequence class, cut into
// chunks of about chunk bytes (split anywhere, even inside sequences).
func hostileOutput(n, chunk int) []string {
	hostile := strings.Join(hostileStream(), "")
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\x1b[3%dmline %d\x1b[0m some ordinary output text here\r\n", i%8, i)
		case 1:
			fmt.Fprintf(&b, "\r[%-20s] %d%%", strings.Repeat("#", i%21), i%101)
		case 2:
			b.WriteString(hostile)
		case 3:
			fmt.Fprintf(&b, "\x1b[2K\x1b[1G\x1b[%d;%dH\x1b[Kcol %d\r\n", i%30, i%80, i)
		}
	}
	s := b.String()
	var out []string
	for len(s) > 0 {
		k := min(chunk, len(s))
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

// progressLoop is a 100,000-step `\r` progress loop.
func progressLoop(steps int) []string {
	out := make([]string, 0, steps/100+1)
	var b strings.Builder
	for i := 1; i <= steps; i++ {
		fmt.Fprintf(&b, "\rprogress %6d/%d [%-20s]", i, steps, strings.Repeat("=", i*20/steps))
		if i%100 == 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	return append(out, "\r\ndone\r\n")
}

// feedRaw feeds chunks without maintaining state content (the emulator
// alone), as the TUI's cost per terminal/data action.
func feedRaw(lt *LiveTerminal, chunks []string) {
	st := lt.State()
	for _, c := range chunks {
		lt.Apply(st, &ahpwire.TerminalData{Data: c})
	}
}

// TestHostileTerminalStreamStaysClean feeds 2 MB of hostile output split
// at arbitrary points and a 100,000-step progress loop: every drawn line
// holds only text and SGR, and the view stays bounded.
func TestHostileTerminalStreamStaysClean(t *testing.T) {
	lt := NewLiveTerminal(ahpwire.TerminalState{Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30)}, true)
	feedRaw(lt, hostileOutput(2<<20, 4093))
	feedRaw(lt, progressLoop(100000))
	if n := lt.LineCount(); n > TerminalScrollback+30 {
		t.Fatalf("%d lines kept", n)
	}
	lines := lt.Lines(0, lt.LineCount(), 100, true)
	for _, l := range lines {
		assertNoRawBytes(t, l)
	}
	if last := lt.Lines(lt.LineCount()-2, 2, 100, false); !strings.HasPrefix(last[0], "progress 100000/100000") || last[1] != "done" {
		t.Fatalf("tail %q", last)
	}
	// The same through the transcript renderer.
	run := baseTool(ahpwire.ToolRunning)
	run.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentTerminal, Resource: "ahp-terminal:/h", IsPty: ahpwire.Ptr(true)}}
	m := msgOf(apply(startState(), toolStart(run)))
	out := New(DarkStyles()).RenderMessage(m, 80, ViewOpts{Now: t0, Terminals: map[string]*LiveTerminal{"ahp-terminal:/h": lt}, Expanded: expand(m, 0)})
	checkRenderedInvariants(t, out, 80)
}

func BenchmarkLiveTerminalFeed10MB(b *testing.B) {
	chunks := hostileOutput(10<<20, 4096)
	b.SetBytes(10 << 20)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		lt := NewLiveTerminal(ahpwire.TerminalState{Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30)}, true)
		feedRaw(lt, chunks)
	}
}

// BenchmarkLiveTerminalChunk is the UI's cost of one 4 KB terminal/data
// action on a terminal that already holds a full scrollback.
func BenchmarkLiveTerminalChunk(b *testing.B) {
	chunks := hostileOutput(2<<20, 4096)
	lt := NewLiveTerminal(ahpwire.TerminalState{Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30)}, true)
	feedRaw(lt, chunks)
	b.SetBytes(4096)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		feedRaw(lt, chunks[i%len(chunks):i%len(chunks)+1])
	}
}

func BenchmarkLiveTerminalProgress100k(b *testing.B) {
	chunks := progressLoop(100000)
	for i := 0; i < b.N; i++ {
		lt := NewLiveTerminal(ahpwire.TerminalState{}, true)
		feedRaw(lt, chunks)
	}
}

// BenchmarkLiveTerminalFrame is one frame of a collapsed and an expanded
// terminal after 10 MB of output (the per-keystroke redraw cost when the
// block is not cached).
func BenchmarkLiveTerminalFrame(b *testing.B) {
	lt := NewLiveTerminal(ahpwire.TerminalState{Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30)}, true)
	feedRaw(lt, hostileOutput(10<<20, 4096))
	r := New(DarkStyles())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = r.liveTerminal(lt, &ahpwire.ToolResultContent{Type: ahpwire.ContentTerminal, Resource: "x"}, i%2 == 0, 100, ViewOpts{})
	}
}
