package ahphost

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// benchClientMessage returns a size-byte dispatchAction notification, as a
// client sends it to the host: "structured" carries many small objects
// (token-dense JSON), "text" one long pasted string with escapes.
func benchClientMessage(tb testing.TB, kind string, size int) []byte {
	var buf bytes.Buffer
	buf.Grow(size)
	buf.WriteString(`{"jsonrpc":"2.0","method":"dispatchAction","params":{"channel":"ahp-chat:/3f1c","clientSeq":7,"action":{"type":"chat/turnStarted","turnId":"t1","message":{"text":"see attachments","origin":{"kind":"user"},"attachments":[`)
	line, tail := `{"id":"m-000123","role":"assistant","kind":"markdown","text":"Here is the \"plan\": step one…","ts":1763773323000,"seq":42,"tags":["a","b"],"meta":{"ok":true,"n":null}},`, `{}]}}}}`
	if kind == "text" {
		buf.WriteString(`{"kind":"text","text":"`)
		line, tail = `2026-11-22T01:02:03.456Z INFO  [build] compiling \"github.com/ahptui/ahptui/segment\"\t(12 files) — naïve ✓\n`, `"}]}}}}`
	}
	for buf.Len() < size-300 {
		buf.WriteString(line)
	}
	for buf.Len() < size-len(tail) {
		buf.WriteByte(' ')
	}
	buf.WriteString(tail)
	msg := buf.Bytes()
	if err := segment.CheckMessage(msg); err != nil || len(msg) != size {
		tb.Fatalf("bench message %q: %d bytes, %v", kind, len(msg), err)
	}
	return msg
}

// BenchmarkHostReassembly runs what the host's read loop does with the
// 900000-byte segments of a 32 MiB client message, up to the decoded
// ahpwire.Message its handlers take: "after" is the host's path
// (FeedUnchecked, then parseReassembled: one validating parse); "before" is
// the path it replaced (Feed with the JSON-RPC check, then json.Unmarshal
// into ahpwire.Message, which validates and copies the message again).
// Metrics, each the fastest of the b.N interleaved runs:
// x-stdbase64 = one base64.StdEncoding.Decode of the encoded message ÷ the
// whole path; reasm-x-stdbase64 = the same ÷ the reassembly (the Feed or
// FeedUnchecked calls) alone.
func BenchmarkHostReassembly(b *testing.B) {
	for _, kind := range []string{"structured", "text"} {
		for _, path := range []string{"before", "after"} {
			b.Run(kind+"/"+path, func(b *testing.B) { benchHostReassembly(b, kind, path == "after") })
		}
	}
}

func benchHostReassembly(b *testing.B, kind string, after bool) {
	msg := benchClientMessage(b, kind, 32<<20)
	recv := segment.RelayCapability()
	frames, err := segment.NewSplitter(nil).Split(msg, &recv, 0)
	if err != nil {
		b.Fatal(err)
	}
	enc := []byte(base64.StdEncoding.EncodeToString(msg))
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(enc)))
	r := segment.NewReassembler(recv.Limits(), nil)
	feed := func() []byte {
		var out []byte
		for _, f := range frames {
			var m []byte
			var err error
			if after {
				m, _, err = r.FeedUnchecked(f)
			} else {
				m, err = r.Feed(f)
			}
			if err != nil {
				b.Fatal(err)
			}
			out = m
		}
		return out
	}
	parse := func(raw []byte) *ahpwire.Message {
		if after {
			p, err := parseReassembled(raw)
			if err != nil || p.undecodable != nil {
				b.Fatal(err, p.undecodable)
			}
			return p.m
		}
		var m ahpwire.Message
		if err := json.Unmarshal(raw, &m); err != nil {
			b.Fatal(err)
		}
		return &m
	}
	bestR, bestAll, bestStd := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		raw := feed()
		reasm := time.Since(start)
		m := parse(raw)
		all := time.Since(start)
		bestR, bestAll = min(bestR, reasm), min(bestAll, all)
		b.StopTimer()
		if m.Method != ahpwire.MethodDispatchAction || len(m.Params) < len(msg)-200 {
			b.Fatalf("decoded %q with %d bytes of params", m.Method, len(m.Params))
		}
		start = time.Now()
		if _, err := base64.StdEncoding.Decode(dst, enc); err != nil {
			b.Fatal(err)
		}
		bestStd = min(bestStd, time.Since(start))
		b.StartTimer()
	}
	b.ReportMetric(float64(bestStd)/float64(bestAll), "x-stdbase64")
	b.ReportMetric(float64(bestStd)/float64(bestR), "reasm-x-stdbase64")
	b.ReportMetric(float64(bestAll.Microseconds())/1000, "best-ms")
}
