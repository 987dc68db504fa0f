package ahphost

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// BenchmarkHostStreamDeltas measures the host's own per-delta write path
// for a reply streamed as a model streams it: the demo agent's
// `/demo stream N [D]` (markdown in 20–60-byte deltas, or D bytes each)
// through the host's emit (reduce, envelope, replay log) and connection
// writer to one subscriber over a loopback WebSocket that reads as fast
// as it can. One op is one reply; it ends when the subscriber has read
// chat/turnComplete.
//
// Metrics: µs/delta (wall), deltas/s, allocs/delta (the process: host and
// the reading client), MB/s of reply text.
func BenchmarkHostStreamDeltas(b *testing.B) {
	for _, c := range []struct {
		name   string
		size   int
		prompt string
	}{
		{"delta=20", 1 << 20, "/demo stream 1m 20"},
		{"delta=20-60", 1 << 20, "/demo stream 1m"},
		{"delta=60", 1 << 20, "/demo stream 1m 60"},
		{"delta=4096", 4 << 20, "/demo stream 4m 4096"},
	} {
		b.Run(c.name, func(b *testing.B) { benchStream(b, Options{}, c.size, c.prompt) })
	}
}

func benchStream(b *testing.B, opts Options, size int, prompt string) {
	opts.NoToken = true
	_, u := startHost(b, opts)
	owner := dial(b, u, nil)
	owner.initialize("owner", nil, nil)
	chat := owner.createSession("ahp-session:/bench")
	sub := dial(b, u, nil)
	sub.initialize("sub", []string{chat}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		deltas int
		err    error
	}
	done := make(chan result, 1)
	go func() {
		n := 0
		for {
			_, data, err := sub.c.Read(ctx)
			if err != nil {
				if ctx.Err() == nil {
					done <- result{err: err}
				}
				return
			}
			if bytes.Contains(data, []byte(`"chat/delta"`)) {
				n++
			}
			if bytes.Contains(data, []byte(`"chat/turnComplete"`)) {
				done <- result{deltas: n}
				n = 0
			}
		}
	}()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	deltas := 0
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		owner.sendMessage(chat, fmt.Sprintf("t%d", i), prompt, uint64(i+1))
		select {
		case r := <-done:
			if r.err != nil {
				b.Fatal(r.err)
			}
			deltas += r.deltas
		case <-time.After(5 * time.Minute):
			b.Fatal("the reply did not complete")
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(elapsed.Nanoseconds())/1000/float64(deltas), "µs/delta")
	b.ReportMetric(float64(deltas)/elapsed.Seconds(), "deltas/s")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(deltas), "allocs/delta")
	b.ReportMetric(float64(size*b.N)/(1<<20)/elapsed.Seconds(), "MB/s")
	cancel()
}
