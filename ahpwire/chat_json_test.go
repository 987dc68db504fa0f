package ahpwire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// turnAlias and chatStateAlias are Turn and ChatState without their
// MarshalJSON methods: what encoding/json writes by reflection.
type (
	turnAlias      Turn
	chatStateAlias ChatState
)

// longChat is a chat of n finished turns, each with a markdown answer of
// size bytes (with characters JSON escapes), a tool call and an error part,
// and a running turn.
func longChat(n, size int) ChatState {
	text := strings.Repeat("Some <b>text</b> & \"quotes\"\tand\nlines — café 日本語. ", size/56+1)[:size]
	c := ChatState{Resource: "ahp-chat:/c", Title: "A long chat", Status: StatusIdle, ModifiedAt: "2026-12-06T00:00:00Z",
		Meta: Meta{"k": json.RawMessage(`{"turns":null}`)}}
	for i := range n {
		d := int64(i)
		ok := true
		c.Turns = append(c.Turns, Turn{ID: "t" + string(rune('a'+i%26)), StartedAt: "2026-12-06T00:00:00Z", Duration: &d,
			Message: UserMessage("question <" + text[:40] + ">"), State: "complete",
			ResponseParts: []ResponsePart{
				MarkdownPart("m", text),
				{Kind: PartToolCall, ToolCall: &ToolCallState{ToolCallID: "c1", ToolName: "bash", DisplayName: "Bash", Status: "completed", Success: &ok}},
				ErrorPart(ErrorInfo{ErrorType: "x", Message: "failed <once>"}, true),
				{Kind: "future-kind", Raw: json.RawMessage(`{"kind":"future-kind","x":[1, 2]}`)},
			}})
	}
	c.Turns = append(c.Turns, Turn{ID: "empty", State: "cancelled"})
	c.ActiveTurn = &ActiveTurn{ID: "run", Message: UserMessage("go"), ResponseParts: PartsOf(MarkdownPart("r", text[:100]))}
	return c
}

// TestChatStateJSONSameAsReflection: the chat state's own encoding decodes
// to what encoding/json makes of the same state, field for field, and is
// valid, compact JSON.
func TestChatStateJSONSameAsReflection(t *testing.T) {
	for _, c := range []ChatState{longChat(3, 500), {Resource: "ahp-chat:/empty"}, longChat(1, 100)} {
		got, err := c.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, got); err != nil || compact.Len() != len(got) {
			t.Fatalf("not valid compact JSON (%v): %.300s", err, got)
		}
		// What encoding/json writes for the same fields, turns and parts
		// by reflection (the aliases drop the methods under test).
		type refTurn = turnAlias
		turns := make([]refTurn, len(c.Turns))
		for i, tt := range c.Turns {
			turns[i] = refTurn(tt)
			if turns[i].ResponseParts == nil {
				turns[i].ResponseParts = []ResponsePart{}
			}
		}
		ref := map[string]any{}
		a, _ := json.Marshal(chatStateAlias(c))
		_ = json.Unmarshal(a, &ref)
		tb, _ := json.Marshal(turns)
		var rt any
		_ = json.Unmarshal(tb, &rt)
		ref["turns"] = rt
		var mine map[string]any
		if err := json.Unmarshal(got, &mine); err != nil {
			t.Fatal(err)
		}
		x, _ := json.Marshal(mine)
		y, _ := json.Marshal(ref)
		if !bytes.Equal(x, y) {
			t.Fatalf("encodings differ:\nmine %.600s\nref  %.600s", x, y)
		}
		back, err := DecodeChatState(got)
		if err != nil || len(back.Turns) != len(c.Turns) {
			t.Fatalf("decode: %v, %d turns", err, len(back.Turns))
		}
	}
}

// BenchmarkChatStateJSON is a durable host's snapshot of a long chat: 20
// turns of 256 KiB answers (5 MB).
func BenchmarkChatStateJSON(b *testing.B) {
	c := longChat(20, 256<<10)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		out, err := c.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.SetBytes(int64(n))
}
