package ahpclient

import (
	"encoding/json"
	"strings"
	"testing"
)

// scanBenchFrames are action frames of the shapes the read loop sees most:
// a small chat/delta, and a 64 KiB delta of tool-output-like text with
// escapes and some non-ASCII.
func scanBenchFrames() map[string][]byte {
	big := strings.Repeat("2026-11-22T01:02:03Z INFO [build] compiling \"segment\"\t(12 files) — ok ✓\n", 850)
	content, _ := json.Marshal(big)
	return map[string][]byte{
		"small": []byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/3f1c","serverSeq":421,"origin":null,"action":{"type":"chat/delta","turnId":"t-17","partId":"p-1","content":"Hello, here is the next sentence of the reply. "}}}`),
		"64KiB": []byte(`{"jsonrpc":"2.0","method":"action","params":{"channel":"ahp-chat:/3f1c","serverSeq":421,"action":{"type":"chat/delta","turnId":"t-17","partId":"p-1","content":` + string(content) + `}}}`),
	}
}

// BenchmarkDecodeActionFrame measures the client's decode of one action
// frame (envelope header + chat/delta action) with the hand-written fast
// path ("fast") and with encoding/json alone ("encoding-json"), the
// alternative to having a scanner at all.
func BenchmarkDecodeActionFrame(b *testing.B) {
	for _, name := range []string{"small", "64KiB"} {
		frame := scanBenchFrames()[name]
		b.Run(name+"/fast", func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				p, ok := decodeActionFast(frame)
				if !ok {
					b.Fatal("fast path refused")
				}
				if _, err := p.envelope(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			b.ReportAllocs()
			for b.Loop() {
				var f actionFrame
				if err := json.Unmarshal(frame, &f); err != nil {
					b.Fatal(err)
				}
				var s streamAction
				if err := json.Unmarshal(f.Params.Action, &s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
