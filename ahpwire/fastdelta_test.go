package ahpwire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMarshalChatDelta: the chat/delta fast path writes exactly what
// encoding/json writes, for any content and ids (escapes, HTML
// characters, controls, U+2028/2029, invalid UTF-8).
func FuzzMarshalChatDelta(f *testing.F) {
	for _, s := range []string{"", "plain words ", "a \"quote\" \\ back\nnew\ttab\r\b\f", "<b>&amp;</b>", "\x00\x1f\x7f",
		"caf\u00e9 \u65e5\u672c \u2028\u2029 \U0001F600", "bad \xff\xfe utf8 \xe2\x82", "`code` **bold**"} {
		f.Add("t1", "t1.md1", s)
	}
	f.Fuzz(func(t *testing.T, turn, part, content string) {
		d := &ChatDelta{TurnID: turn, PartID: part, Content: content}
		want, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalAction(d)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("MarshalAction = %s, %v\nencoding/json = %s", got, err, want)
		}
	})
}

func BenchmarkMarshalChatDelta(b *testing.B) {
	d := &ChatDelta{TurnID: "t12", PartID: "t12.md1", Content: "a delta of forty bytes, with `code` & <x>"}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = MarshalAction(d)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, _ = json.Marshal(d)
		}
	})
}
