package jsonscan

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestScanStringMatchesEncodingJSON compares ScanString with encoding/json
// on random strings built from the characters that matter, at every
// alignment relative to the 16-byte fast loop.
func TestScanStringMatchesEncodingJSON(t *testing.T) {
	atoms := []string{"a", "b", `\"`, `\\`, `\n`, `\/`, `\u00e9`, `\ud83d\ude00`, `\x`, `\u12`, `\`, "\"", "é", "日", "😀", "\x01", "\t", "\xff", "\xe0\x80", " "}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var sb strings.Builder
		sb.WriteString(strings.Repeat(" ", rng.IntN(16)))
		sb.WriteByte('"')
		for k := rng.IntN(40); k > 0; k-- {
			sb.WriteString(atoms[rng.IntN(len(atoms))])
		}
		sb.WriteByte('"')
		in := []byte(sb.String())
		start := SkipWS(in, 0)
		end, _, ok := ScanString(in, start)
		mine := ok && end == len(in)
		want := json.Valid(in) && utf8.Valid(in)
		if mine != want {
			t.Fatalf("ScanString(%q) = %v (end %d), encoding/json %v", in, mine, end, want)
		}
		if mine {
			var ref string
			got, _, _ := String(in, start)
			if json.Unmarshal(in, &ref) != nil || got != ref {
				t.Fatalf("String(%q) = %q, encoding/json %q", in, got, ref)
			}
		}
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`a\/b`:               "a/b",
		`\"\\\b\f\n\r\t`:     "\"\\\b\f\n\r\t",
		`\u00e9\u65e5`:       "é日",
		`\ud83d\ude00`:       "😀",
		`\ud83d`:             "\uFFFD",
		`\ud83dx`:            "\uFFFDx",
		`\ude00\ud83d\u0041`: "\uFFFD\uFFFDA",
	} {
		var ref string
		if err := json.Unmarshal([]byte(`"`+in+`"`), &ref); err != nil {
			t.Fatal(err)
		}
		if got := string(Unescape(nil, []byte(in))); got != want || got != ref {
			t.Errorf("Unescape(%q) = %q, want %q (encoding/json %q)", in, got, want, ref)
		}
	}
}
