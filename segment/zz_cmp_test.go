package segment

import (
	"encoding/base64"
	"testing"
	"time"
)

func BenchmarkZZCompare(b *testing.B) {
	for _, kind := range []string{"text", "unicode", "structured"} {
		b.Run(kind, func(b *testing.B) {
			msg := benchMessageSize(b, kind, 1<<20)
			var e envelope
			e.scan(msg, scanFrame)
			v := msg[e.params.start:]
			if e.params.kind == 0 {
				e.scan(msg, scanStrict)
				v = msg[e.result.start:]
			}
			bo, bn := time.Hour, time.Hour
			for b.Loop() {
				t := time.Now()
				_, ok1 := skipValueOld(v, 0)
				bo = min(bo, time.Since(t))
				t = time.Now()
				_, ok2 := skipValue(v, 0)
				bn = min(bn, time.Since(t))
				if !ok1 || !ok2 {
					b.Fatal("bad")
				}
			}
			b.ReportMetric(float64(bo.Microseconds())/1000, "old-ms")
			b.ReportMetric(float64(bn.Microseconds())/1000, "new-ms")
			b.ReportMetric(float64(bn)/float64(bo), "new/old")
		})
	}
}


func BenchmarkZZDecode(b *testing.B) {
	msg := benchMessageSize(b, "structured", 1<<20)
	enc := []byte(base64.StdEncoding.EncodeToString(msg))
	dst := make([]byte, len(msg)+3)
	bs, bo := time.Hour, time.Hour
	for b.Loop() {
		t := time.Now()
		base64.StdEncoding.Decode(dst, enc)
		bs = min(bs, time.Since(t))
		t = time.Now()
		b64Decode(dst, enc)
		bo = min(bo, time.Since(t))
	}
	b.ReportMetric(float64(bo)/float64(bs), "ours/std")
	b.ReportMetric(float64(bs.Microseconds())/1000, "std-ms")
}
