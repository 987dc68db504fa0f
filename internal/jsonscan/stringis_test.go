package jsonscan

import (
	"encoding/json"
	"testing"
)

// TestStringIsMatchesEncodingJSON: StringIs decides as encoding/json's
// decoding of the string does, for plain and escaped spellings, and
// refuses what is not a valid string.
func TestStringIsMatchesEncodingJSON(t *testing.T) {
	wants := []string{"2.0", "ahp/messageSegment", "method", "é", "😀", ""}
	inputs := []string{
		`"2.0"`, `"\u0032.0"`, `"2\u002e0"`, `"2.1"`, `"2.0 "`, `""`,
		`"ahp\/messageSegment"`, `"\u0061hp/messageSegment"`, `"ahp/messagesegment"`,
		`"meth\u006fd"`, `"Method"`, `"\u00e9"`, `"é"`, `"\ud83d\ude00"`, `"😀"`, `"\ud83d"`,
		`"\u0032\u002e\u0030"`,
	}
	for _, in := range inputs {
		var dec string
		if err := json.Unmarshal([]byte(in), &dec); err != nil {
			t.Fatalf("seed %s: %v", in, err)
		}
		for _, want := range wants {
			end, is, ok := StringIs([]byte(in+","), 0, want)
			if !ok || end != len(in) || is != (dec == want) {
				t.Errorf("StringIs(%s, %q) = %d %v %v, want %d %v true", in, want, end, is, ok, len(in), dec == want)
			}
		}
	}
	for _, bad := range []string{`2.0`, `"2.0`, `"\x"`, "\"\xff\"", ``} {
		if _, is, ok := StringIs([]byte(bad), 0, "2.0"); ok || is {
			t.Errorf("StringIs(%q) = %v %v, want refused", bad, is, ok)
		}
	}
}
