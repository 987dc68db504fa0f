package ahpwire

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeAction checks that DecodeAction never panics and that whatever
// it accepts re-encodes to JSON that decodes to an action of the same type.
func FuzzDecodeAction(f *testing.F) {
	for _, a := range sampleActions() {
		b, err := MarshalAction(a)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"type":"chat/error","turnId":"t","error":{"errorType":"x","message":"m"}}`))
	f.Add([]byte(`{"type":"x/unknown"}`))
	f.Add([]byte(`{"type":"chat/responsePart","turnId":"t","part":{"kind":"toolCall","toolCall":{"status":"weird"}}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := DecodeAction(raw)
		if err != nil {
			return
		}
		b, err := MarshalAction(a)
		if err != nil {
			t.Fatalf("accepted %q but cannot re-encode: %v", raw, err)
		}
		if !json.Valid(b) {
			t.Fatalf("re-encoded invalid JSON %q", b)
		}
		a2, err := DecodeAction(b)
		if err != nil {
			t.Fatalf("re-encoded %q does not decode: %v", b, err)
		}
		if a2.ActionType() != a.ActionType() {
			t.Fatalf("type changed %q -> %q", a.ActionType(), a2.ActionType())
		}
	})
}
