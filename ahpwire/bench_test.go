package ahpwire

import (
	"encoding/json"
	"testing"
)

var benchEnvelope = []byte(`{"channel":"ahp-chat:/c1","serverSeq":62,"action":{"type":"chat/delta","turnId":"t-9d2","partId":"p1","content":"Hello, world"}}`)

// BenchmarkDecodeEnvelopeDelta measures decoding one streamed delta envelope.
func BenchmarkDecodeEnvelopeDelta(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchEnvelope)))
	for b.Loop() {
		var e ActionEnvelope
		if err := json.Unmarshal(benchEnvelope, &e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeEnvelopeDelta measures encoding one delta envelope.
func BenchmarkEncodeEnvelopeDelta(b *testing.B) {
	e := ActionEnvelope{Channel: "ahp-chat:/c1", ServerSeq: 62, Action: &ChatDelta{TurnID: "t-9d2", PartID: "p1", Content: "Hello, world"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(e); err != nil {
			b.Fatal(err)
		}
	}
}
