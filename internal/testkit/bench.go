package testkit

import (
	"encoding/base64"
	"testing"
	"time"
)

// BestVsStdBase64 is the loop of the reassembly benchmarks: it runs run
// b.N times, each followed by an untimed base64.StdEncoding.Decode of enc
// into dst (the yardstick, interleaved so both see the same machine load),
// reports allocations, and reports the fastest run as best-ms and the
// fastest decode divided by the fastest run as x-stdbase64.
func BestVsStdBase64(b *testing.B, enc, dst []byte, run func()) {
	b.Helper()
	bestR, bestStd := time.Duration(1<<62), time.Duration(1<<62)
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		run()
		bestR = min(bestR, time.Since(start))
		b.StopTimer()
		start = time.Now()
		if _, err := base64.StdEncoding.Decode(dst, enc); err != nil {
			b.Fatal(err)
		}
		bestStd = min(bestStd, time.Since(start))
		b.StartTimer()
	}
	b.ReportMetric(float64(bestStd)/float64(bestR), "x-stdbase64")
	b.ReportMetric(float64(bestR.Microseconds())/1000, "best-ms")
}
