package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// burstText is n bytes shaped like the demo's /demo big reply: numbered
// 80-column lines, a blank line after every 20.
func burstText(n int) string {
	var b strings.Builder
	b.Grow(n + 100)
	for line := 1; b.Len() < n; line++ {
		if line%21 == 0 {
			b.WriteByte('\n')
			continue
		}
		fmt.Fprintf(&b, "%07d the quick brown fox jumps over the lazy dog, every byte of this reply counted\n", line)
	}
	return b.String()[:n]
}

// BenchmarkKeystrokeDuringBurst streams a 32 MiB reply into an open
// markdown part in 4 MiB deltas (what `/demo big 32000000` sends); after
// each delta the frame tick lays the transcript out and one key is typed
// and drawn. ms/frame is the worst delta+frame+key step of a burst (what a
// keystroke waits for at most), ms/key-mean the mean.
func BenchmarkKeystrokeDuringBurst(b *testing.B) {
	const size, chunk = 32 << 20, 4 << 20
	text := burstText(size)
	var worst, total time.Duration
	steps := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		m, _ := newTestModel(b, 120, 40)
		m = openChat(b, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", ""))))
		b.StartTimer()
		for off, seq := 0, uint64(2); off < len(text); off, seq = off+chunk, seq+1 {
			t0 := time.Now()
			m = send(b, m, envelope(seq, &ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: text[off:min(off+chunk, len(text))]}))
			m = send(b, m, app.FrameMsg{})
			m = keystroke(m, steps)
			d := time.Since(t0)
			worst, total, steps = max(worst, d), total+d, steps+1
		}
		if v := viewText(m); !strings.Contains(v, "counted") {
			b.Fatalf("the tail is not on screen:\n%s", v)
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "ms/frame-max")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(steps), "ms/frame-mean")
}

// BenchmarkResizeAfterBurst measures a terminal resize (Update + View) with
// a finished 32 MiB reply on screen: the visible message is laid out again
// at the new width.
func BenchmarkResizeAfterBurst(b *testing.B) {
	const size, chunk = 32 << 20, 4 << 20
	text := burstText(size)
	m, _ := newTestModel(b, 120, 40)
	m = openChat(b, m, chatState(nil, activeTurn(ahpwire.MarkdownPart("t2.m1", ""))))
	seq := uint64(2)
	for off := 0; off < len(text); off, seq = off+chunk, seq+1 {
		m = send(b, m, envelope(seq, &ahpwire.ChatDelta{TurnID: "t2", PartID: "t2.m1", Content: text[off:min(off+chunk, len(text))]}))
	}
	m = send(b, m, envelope(seq, &ahpwire.ChatTurnComplete{TurnID: "t2"}))
	m = send(b, m, app.FrameMsg{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = send(b, m, teaSize(100+i%2*20, 40))
		_ = m.View()
	}
}
