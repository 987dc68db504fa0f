package jsonscan

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzJSONValid compares the hand-written JSON validator with
// encoding/json.Valid + utf8.Valid.
func FuzzJSONValid(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","method":"x","params":{}}`, `[1,2,{"a":[true,false,null,-0.5e+3]}]`, `"\ud83d\ude00"`, `{"a":}`, `[1,]`, `01`, `"\x"`, ` {} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		// encoding/json does not check UTF-8; our validator does.
		i, ok := SkipValue(in, 0)
		mine := ok && SkipWS(in, i) == len(in)
		if want := json.Valid(in) && utf8.Valid(in); mine != want {
			t.Fatalf("skipValue says %v, encoding/json + utf8.Valid say %v for %q", mine, want, in)
		}
	})
}
