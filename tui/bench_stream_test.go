package tui

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
)

// streamFrame is the frame period Bubble Tea's tick gives the chat
// (Options.FrameInterval's default).
const streamFrame = 33 * time.Millisecond

// streamCase is one /demo stream reply: size bytes in deltas of delta bytes
// (0: 20–60 bytes, as a model streams).
type streamCase struct {
	name        string
	size, delta int
	single      bool // one event per Update (the pump before batching)
}

// BenchmarkStreamDeltas streams a /demo stream reply (markdown: headings,
// paragraphs, lists, code fences, tables) from the embedded host over a
// real WebSocket through ahpclient's read path, the pump's batches (what
// was queued between two Updates), the model's Update (reduce, derive,
// acknowledge, syncExt) and View after every Update, with a frame tick
// every 33 ms as Bubble Tea delivers it, until the reply's last line is on
// screen at 120×40.
//
// Metrics: ms-last-line (prompt sent → last line drawn), ui-µs/delta (time
// in Update+View per delta), p50-µs/delta (the median delta's share of its
// batch's Update+View), ms/MB, cpu-ms (process CPU: host and client
// together), allocs/delta and allocs/MB (process: host and client),
// deltas, batch-mean (deltas per Update). single-200KB hands the model one
// event per Update, as the pump did before batching: the ratio to
// mixed-200KB in one run is what batching (and only batching) buys.
func BenchmarkStreamDeltas(b *testing.B) {
	for _, c := range []streamCase{
		{name: "delta=20", size: 1 << 20, delta: 20},
		{name: "delta=60", size: 3 << 20, delta: 60},
		{name: "delta=4096", size: 3 << 20, delta: 4096},
		{name: "mixed-3MB", size: 3 << 20},
		{name: "mixed-200KB", size: 200 << 10},
		{name: "single-200KB", size: 200 << 10, single: true},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				streamOnce(b, c)
			}
		})
	}
}

// streamOnce runs one reply of c through a fresh host, client and model.
func streamOnce(b *testing.B, c streamCase) {
	b.StopTimer()
	r := startLiveRig(b, ahphost.Options{Dir: b.TempDir(), NoToken: true, Pace: time.Millisecond})
	r.m = send(b, r.m, teaSize(120, 40))
	r.pump("agents", func(m Model) bool { return len(m.picker.Agents) > 0 && m.picker.Loaded })
	r.newSession()
	r.pump("chat", func(m Model) bool { return m.screen == screenChat && m.chat.Ready })
	prompt := fmt.Sprintf("/demo stream %d", c.size)
	if c.delta > 0 {
		prompt += fmt.Sprintf(" %d", c.delta)
	}
	r.m = typeText(b, r.m, prompt)
	footer := fmt.Sprintf("-- end of stream %d bytes --", c.size)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	runtime.GC()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := processCPU()
	b.StartTimer()

	start := time.Now()
	r.m = send(b, r.m, keyPress("enter"))
	var (
		ui       time.Duration
		costs    []batchCost
		deltas   int
		batches  int
		started  bool
		lastTick = start
		next     time.Time // when the pump may take again (pumpPace)
	)
	step := func(msg tea.Msg) time.Duration {
		t0 := time.Now()
		nm, _ := r.m.Update(msg)
		r.m = nm.(Model)
		_ = r.m.View()
		return time.Since(t0)
	}
	for {
		var msg tea.Msg
		if c.single {
			ev, err := r.client.Next(ctx)
			if err != nil {
				b.Fatal(err)
			}
			msg = connEventMsg{ev: ev, b: r.m.c.Backend}
		} else {
			msg = waitForBatch(ctx, r.m.c.Backend, r.client, next)() // paced as the model re-arms it
			if bm, ok := msg.(connBatchMsg); ok {
				next = bm.next
			}
		}
		n := deltaCount(msg)
		d := step(msg)
		ui += d
		batches++
		if n > 0 {
			deltas += n
			started = true
			costs = append(costs, batchCost{per: d / time.Duration(n), n: n})
		}
		if r.m.chat.Ticking && time.Since(lastTick) >= streamFrame {
			ui += step(app.FrameMsg{})
			lastTick = time.Now()
		}
		if started && r.m.chat.State.Current == nil {
			ui += step(app.FrameMsg{})
			if !strings.Contains(viewText(r.m), footer) {
				b.Fatalf("the reply's last line is not on screen:\n%s", viewText(r.m))
			}
			break
		}
	}
	wall := time.Since(start)
	b.StopTimer()
	cpu := processCPU() - cpu0
	runtime.ReadMemStats(&ms1)
	mb := float64(c.size) / (1 << 20)
	b.ReportMetric(float64(wall.Microseconds())/1000, "ms-last-line")
	b.ReportMetric(float64(wall.Microseconds())/1000/mb, "ms/MB")
	b.ReportMetric(float64(ui.Nanoseconds())/1000/float64(deltas), "ui-µs/delta")
	b.ReportMetric(float64(ui.Microseconds())/1000/mb, "ui-ms/MB")
	b.ReportMetric(float64(p50(costs).Nanoseconds())/1000, "p50-µs/delta")
	b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(deltas), "allocs/delta")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/mb, "allocs/MB")
	b.ReportMetric(float64(deltas), "deltas")
	b.ReportMetric(float64(deltas)/float64(batches), "batch-mean")
	b.StartTimer()
}

// batchCost is one batch's Update+View time per delta and its delta count.
type batchCost struct {
	per time.Duration
	n   int
}

// p50 is the median delta's cost (each delta weighs as its batch's share).
func p50(cs []batchCost) time.Duration {
	slices.SortFunc(cs, func(a, b batchCost) int { return int(a.per - b.per) })
	total := 0
	for _, c := range cs {
		total += c.n
	}
	seen := 0
	for _, c := range cs {
		if seen += c.n; seen*2 >= total {
			return c.per
		}
	}
	return 0
}

// deltaCount counts the chat deltas in a pump message.
func deltaCount(msg tea.Msg) int {
	isDelta := func(ev ahpclient.Event) int {
		if e, ok := ev.(ahpclient.EnvelopeEvent); ok {
			if _, ok := e.Envelope.Action.(*ahpwire.ChatDelta); ok {
				return 1
			}
		}
		return 0
	}
	switch m := msg.(type) {
	case connEventMsg:
		return isDelta(m.ev)
	case connBatchMsg:
		n := 0
		for _, e := range m.evs {
			n += isDelta(e.ev)
		}
		return n
	}
	return 0
}
