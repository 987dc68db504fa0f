package render

import (
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
)

type ansiStyleConfig = ansi.StyleConfig

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
func streamRun(doc string) (times []renderTime, atPrefix renderTime) {
	defer lockThread()()
	r := New(DarkStyles())
	var near []renderTime
	k := 0
	for end := benchDelta; ; end += benchDelta {
		end = min(end, len(doc))
		k++
		done := end == len(doc)
		if k%benchEvery == 0 || done {
			c, t := threadCPU(), time.Now()
			r.Markdown("bench", doc[:end], done, benchWidth)
			d := time.Since(t)
			rt := renderTime{wall: d, cpu: threadCPU() - c, end: end}
			times = append(times, rt)
			if end >= naivePrefix-1000 && end <= naivePrefix+1000 {
				near = append(near, rt)
			}
		}
		if done {
			break
		}
	}
	for _, d := range near {
		atPrefix.wall += d.wall
		atPrefix.cpu += d.cpu
	}
	n := time.Duration(max(len(near), 1))
	atPrefix.wall /= n
	atPrefix.cpu /= n
	return times, atPrefix
}

// naiveRender returns the wall and thread-CPU time of one full glamour
// render of doc (the naive strategy re-renders the whole message on every
// delta), medians of a few runs, with the same glamour configuration.
func naiveRender(tb testing.TB, doc string) renderTime {
	defer lockThread()()
	st := DarkStyles()
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(st.Markdown), glamour.WithWordWrap(benchWidth),
		glamour.WithChromaFormatter(chromaFormatter))
	if err != nil {
		tb.Fatal(err)
	}
	var walls, cpus []time.Duration
	for range 5 {
		c, t := threadCPU(), time.Now()
		if _, err := tr.Render(doc); err != nil {
			tb.Fatal(err)
		}
		walls = append(walls, time.Since(t))
		cpus = append(cpus, threadCPU()-c)
	}
	slices.Sort(walls)
	slices.Sort(cpus)
	return renderTime{wall: walls[len(walls)/2], cpu: cpus[len(cpus)/2]}
}

// BenchmarkStreamMarkdown streams a ~200 KB mixed markdown answer in 20-byte
// deltas with a render every 5 deltas (frame coalescing) and reports:
// total-ms (all renders of one stream), mean-ms and worst-ms per render,
// renders (count), and x-naive = a full glamour re-render of the 20 KB
// prefix ÷ the mean incremental render near the 20 KB point. Wall times
// (total-ms, mean-ms, worst-ms, p99-ms) include time the thread waited for a
// CPU on a loaded machine; the -cpu-ms metrics and x-naive use the render
// thread's CPU time (CLOCK_THREAD_CPUTIME_ID), x-naive-wall wall time.
func BenchmarkStreamMarkdown(b *testing.B) {
	doc := genMarkdown(benchDocBytes)
	naive := naiveRender(b, doc[:naivePrefix])
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	var total, worst, totalCPU, worstCPU time.Duration
	var renders int
	var atPrefix renderTime
	var walls []time.Duration
	for b.Loop() {
		times, near := streamRun(doc)
		atPrefix.wall += near.wall
		atPrefix.cpu += near.cpu
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
	b.ReportMetric(ms(naive.wall), "naive20k-ms")
	b.ReportMetric(ms(atPrefix.wall)/n, "incr20k-ms")
	if atPrefix.cpu > 0 {
		b.ReportMetric(float64(naive.cpu)/float64(atPrefix.cpu/time.Duration(b.N)), "x-naive")
	}
	b.ReportMetric(float64(naive.wall)/float64(atPrefix.wall/time.Duration(b.N)), "x-naive-wall")
}

// BenchmarkGlamourParagraph renders one ~370-byte streaming paragraph (a
// typical open tail) with glamour, with the document colour of glamour's
// dark style ("doc-colour") and with the terminal's default foreground as
// our Styles use it ("default-fg"). See markdownConfig.
func BenchmarkGlamourParagraph(b *testing.B) {
	para := genMarkdown(1000)[34:400]
	st := DarkStyles()
	withColour := st.MarkdownPlain
	grey := "252"
	withColour.Document.Color = &grey
	for _, c := range []struct {
		name string
		cfg  ansiStyleConfig
	}{{"doc-colour", withColour}, {"default-fg", st.MarkdownPlain}} {
		tr, err := glamour.NewTermRenderer(glamour.WithStyles(c.cfg), glamour.WithWordWrap(benchWidth))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := tr.Render(para); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSanitize measures the sanitiser on a 200 KB answer with tabs,
// non-ASCII text and escape sequences mixed in (plain ASCII takes a fast
// path that does not copy).
func BenchmarkSanitize(b *testing.B) {
	doc := strings.ReplaceAll(genMarkdown(benchDocBytes), "section", "séction \x1b[31mred\x1b[0m\t—")
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Sanitize(doc)
	}
}

// BenchmarkRenderMessageCached re-renders a finished 20 KB message that is
// already cached (what every frame costs for finished messages in view).
func BenchmarkRenderMessageCached(b *testing.B) {
	m := finishedMessage("a", genMarkdown(naivePrefix))
	r := New(DarkStyles())
	r.RenderMessage(m, benchWidth, ViewOpts{})
	for b.Loop() {
		r.RenderMessage(m, benchWidth, ViewOpts{})
	}
}

// BenchmarkResizeMessage renders a finished 20 KB message at a new width
// (every block re-rendered once, as after a terminal resize).
func BenchmarkResizeMessage(b *testing.B) {
	m := finishedMessage("a", genMarkdown(naivePrefix))
	w := 60
	for b.Loop() {
		r := New(DarkStyles())
		r.RenderMessage(m, w, ViewOpts{})
	}
}

// BenchmarkStreamLongBlocks streams single long blocks (a 150-row table, a
// 100-item list, a 12 KB one-line paragraph) in 100-byte steps and reports
// the worst per-frame CPU time: the open block is rendered in segments of
// about segLimit bytes, so a frame costs the same at row 10 and row 150.
func BenchmarkStreamLongBlocks(b *testing.B) {
	for _, name := range []string{"table", "list", "para"} {
		doc := longBlocks()[name]
		b.Run(name, func(b *testing.B) {
			defer lockThread()()
			var worst time.Duration
			for b.Loop() {
				r := New(DarkStyles())
				for end := 100; end < len(doc); end += 100 {
					c := threadCPU()
					r.Markdown("x", doc[:end], false, benchWidth)
					worst = max(worst, threadCPU()-c)
				}
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-cpu-ms")
		})
	}
}
