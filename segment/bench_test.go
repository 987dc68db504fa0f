package segment

import (
	"bytes"
	"encoding/base64"
	"testing"
	"time"

	"github.com/ahptui/ahptui/internal/testkit"
)

// benchMessage returns a 32 MiB JSON-RPC message:
//   - "text": one tool-output string of build-log lines (mostly ASCII, \n,
//     \t and \" escapes, every 8th line with some non-ASCII text);
//   - "unicode": the same with dense non-ASCII (≈ 15 % of the bytes);
//   - "structured": a snapshot-like response with many small objects.
func benchMessage(tb testing.TB, kind string) []byte {
	return benchMessageSize(tb, kind, 32<<20)
}

// benchMessageSize is benchMessage with a given size (≥ 1 KiB).
func benchMessageSize(tb testing.TB, kind string, size int) []byte {
	var buf bytes.Buffer
	buf.Grow(size)
	var lines []string
	switch kind {
	case "text":
		buf.WriteString(`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/3f1c","serverSeq":421,"action":{"type":"chat/toolCallComplete","toolCallId":"t1","result":{"content":"`)
		for i := range 8 {
			l := `2026-11-22T01:02:03.456Z INFO  [build] compiling \"github.com/ahptui/ahptui/segment\"\t(12 files, 3.4 MB)`
			if i == 7 {
				l += ` — naïve café ✓`
			}
			lines = append(lines, l+`\n`)
		}
	case "unicode":
		buf.WriteString(`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/3f1c","serverSeq":421,"action":{"type":"chat/toolCallComplete","toolCallId":"t1","result":{"content":"`)
		lines = []string{`2026-11-22T01:02:03Z INFO build: compiling package github.com/ahptui (file \"decode.go\") — ok ✓ 日本語のテキスト\n`}
	case "structured":
		buf.WriteString(`{"jsonrpc":"2.0","id":17,"result":{"type":"snapshot","snapshots":[`)
		lines = []string{`{"id":"m-000123","role":"assistant","kind":"markdown","text":"Here is the \"plan\": step one…","ts":1763773323000,"seq":42,"tags":["a","b"],"meta":{"ok":true,"n":null}},`}
	}
	for k := 0; buf.Len() < size-300; k++ {
		buf.WriteString(lines[k%len(lines)])
	}
	tail := `"}}}}`
	if kind == "structured" {
		tail = `{}]}}`
	}
	for buf.Len() < size-len(tail) {
		buf.WriteByte(' ')
	}
	buf.WriteString(tail)
	msg := buf.Bytes()
	if len(msg) != size || checkMessage(msg) != 0 {
		tb.Fatalf("bench message %q: %d bytes, check %v", kind, len(msg), checkMessage(msg))
	}
	return msg
}

// dataOf concatenates the data strings of segment frames.
func dataOf(frames [][]byte) []byte {
	var enc []byte
	for _, f := range frames {
		var e envelope
		e.scan(f, scanFrame)
		enc = append(enc, f[e.data.start:e.data.end]...)
	}
	return enc
}

// BenchmarkReassemble feeds the 900000-byte frames of a 32 MiB message to a
// Reassembler. x-stdbase64 = (one base64.StdEncoding.Decode of the same
// encoded data) ÷ (one full reassembly), both the fastest of the b.N
// interleaved runs of this benchmark. "<kind>" uses Feed (every rule, the
// JSON-RPC check included: the host's path); "<kind>-unchecked" uses
// FeedUnchecked (every segment rule and UTF-8; the JSON-RPC check is left to
// the parse of the message: the client's path).
func BenchmarkReassemble(b *testing.B) {
	for _, kind := range []string{"text", "unicode", "structured"} {
		for _, unchecked := range []bool{false, true} {
			name := kind
			if unchecked {
				name += "-unchecked"
			}
			b.Run(name, func(b *testing.B) { benchReassemble(b, kind, unchecked) })
		}
	}
}

func benchReassemble(b *testing.B, kind string, unchecked bool) {
	msg := benchMessage(b, kind)
	recv := RelayCapability()
	frames, err := NewSplitter(nil).Split(msg, &recv, 0)
	if err != nil {
		b.Fatal(err)
	}
	enc := dataOf(frames)
	dst := make([]byte, base64.StdEncoding.DecodedLen(len(enc)))
	r := NewReassembler(recv.Limits(), nil)
	feed := func() []byte {
		if !unchecked {
			return feedAll(b, r, frames)
		}
		var out []byte
		for _, f := range frames {
			m, _, err := r.FeedUnchecked(f)
			if err != nil {
				b.Fatal(err)
			}
			out = m
		}
		return out
	}
	b.SetBytes(int64(len(msg)))
	testkit.BestVsStdBase64(b, enc, dst, func() {
		if out := feed(); len(out) != len(msg) {
			b.Fatal("bad reassembly")
		}
	})
	b.ReportMetric(float64(len(frames)), "frames")
}

// BenchmarkSplit splits a 32 MiB message into 900000-byte frames.
// x-stdbase64 = (one base64.StdEncoding.Encode of the message) ÷ (one Split),
// both the fastest of the b.N interleaved runs.
func BenchmarkSplit(b *testing.B) {
	msg := benchMessage(b, "text")
	recv := RelayCapability()
	sp := NewSplitter(nil)
	dst := make([]byte, base64.StdEncoding.EncodedLen(len(msg)))
	bestS, bestStd := time.Duration(1<<62), time.Duration(1<<62)
	var n int
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		g, err := sp.SplitGroup(msg, &recv, 0)
		bestS = min(bestS, time.Since(start))
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		n = len(g.Frames)
		sp.Done(g.ID)
		start = time.Now()
		base64.StdEncoding.Encode(dst, msg)
		bestStd = min(bestStd, time.Since(start))
		b.StartTimer()
	}
	b.ReportMetric(float64(bestStd)/float64(bestS), "x-stdbase64")
	b.ReportMetric(float64(bestS.Microseconds())/1000, "best-ms")
	b.ReportMetric(float64(n), "frames")
}

// BenchmarkCheckMessage measures the final UTF-8 + JSON-RPC validation of a
// reassembled 32 MiB message alone (part of BenchmarkReassemble).
func BenchmarkCheckMessage(b *testing.B) {
	for _, kind := range []string{"text", "unicode", "structured"} {
		b.Run(kind, func(b *testing.B) {
			msg := benchMessage(b, kind)
			b.SetBytes(int64(len(msg)))
			for b.Loop() {
				if checkMessage(msg) != 0 {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkDecode compares the package's base64 decoder with the standard
// one on the encoded 32 MiB message.
func BenchmarkDecode(b *testing.B) {
	msg := benchMessage(b, "text")
	enc := []byte(base64.StdEncoding.EncodeToString(msg))
	dst := make([]byte, len(msg)+3)
	b.Run("std", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			base64.StdEncoding.Decode(dst, enc)
		}
	})
	b.Run("segment", func(b *testing.B) {
		b.SetBytes(int64(len(enc)))
		for b.Loop() {
			b64Decode(dst, enc)
		}
	})
}
