package render

import (
	"slices"
	"testing"
	"time"

	"charm.land/glamour/v2"
)

const (
	benchDocBytes = 200_000
	benchDelta    = 20
	benchEvery    = 5
	benchWidth    = 100
	naivePrefix   = 20_000
)

// renderTime is the wall and thread-CPU time of one render.
type renderTime struct {
	wall, cpu time.Duration
	end       int // prefix length rendered
}

// streamRun streams doc in benchDelta-byte deltas, rendering every
// benchEvery deltas and once more when done, and returns every render's
// times plus the mean wall time of the renders whose prefix lies within
// 1 KB of naivePrefix.
func streamRun(doc string) (times []renderTime, atPrefix time.Duration) {
	defer lockThread()()
	r := New(DarkStyles())
	var near []time.Duration
	k := 0
	for end := benchDelta; ; end += benchDelta {
		end = min(end, len(doc))
		k++
		done := end == len(doc)
		if k%benchEvery == 0 || done {
			c, t := threadCPU(), time.Now()
			r.Markdown("bench", doc[:end], done, benchWidth)
			d := time.Since(t)
			times = append(times, renderTime{wall: d, cpu: threadCPU() - c, end: end})
			if end >= naivePrefix-1000 && end <= naivePrefix+1000 {
				near = append(near, d)
			}
		}
		if done {
			break
		}
	}
	var sum time.Duration
	for _, d := range near {
		sum += d
	}
	return times, sum / time.Duration(max(len(near), 1))
}

// naiveRender returns the time of one full glamour render of doc (the
// naive strategy re-renders the whole message on every delta), the median
// of a few runs.
func naiveRender(tb testing.TB, doc string) time.Duration {
	st := DarkStyles()
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(st.Markdown), glamour.WithWordWrap(benchWidth),
		glamour.WithChromaFormatter(chromaFormatter))
	if err != nil {
		tb.Fatal(err)
	}
	var ds []time.Duration
	for range 5 {
		t := time.Now()
		if _, err := tr.Render(doc); err != nil {
			tb.Fatal(err)
		}
		ds = append(ds, time.Since(t))
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// BenchmarkStreamMarkdown streams a ~200 KB mixed markdown answer in 20-byte
// deltas with a render every 5 deltas (frame coalescing) and reports:
// total-ms (all renders of one stream), mean-ms and worst-ms per render,
// renders (count), and x-naive = a full glamour re-render of the 20 KB
// prefix ÷ the mean incremental render near the 20 KB point.
func BenchmarkStreamMarkdown(b *testing.B) {
	doc := genMarkdown(benchDocBytes)
	naive := naiveRender(b, doc[:naivePrefix])
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	var total, worst, totalCPU, worstCPU time.Duration
	var renders int
	var atPrefix time.Duration
	var walls []time.Duration
	for b.Loop() {
		times, near := streamRun(doc)
		atPrefix += near
		for _, d := range times {
			total += d.wall
			worst = max(worst, d.wall)
			totalCPU += d.cpu
			worstCPU = max(worstCPU, d.cpu)
			walls = append(walls, d.wall)
		}
		renders += len(times)
	}
	slices.Sort(walls)
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(total)/n, "total-ms")
	b.ReportMetric(ms(total)/float64(renders), "mean-ms")
	b.ReportMetric(ms(worst), "worst-ms")
	b.ReportMetric(ms(walls[len(walls)*99/100]), "p99-ms")
	b.ReportMetric(ms(totalCPU)/n, "total-cpu-ms")
	b.ReportMetric(ms(worstCPU), "worst-cpu-ms")
	b.ReportMetric(float64(renders)/n, "renders")
	b.ReportMetric(float64(naive.Microseconds())/1000, "naive20k-ms")
	b.ReportMetric(float64(naive)/float64(atPrefix/time.Duration(b.N)), "x-naive")
}
