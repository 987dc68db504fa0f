package segment

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// refCheckMessage is the reference for checkMessage, written with
// encoding/json and unicode/utf8 only: valid UTF-8, exactly one valid JSON
// value, and the JSON-RPC 2.0 shape (request, notification or response)
// that is not itself a segment.
func refCheckMessage(b []byte) Rule {
	if !utf8.Valid(b) {
		return RuleInvalidUTF8
	}
	if !json.Valid(b) {
		return RuleInvalidJSONRPC
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return RuleInvalidJSONRPC
	}
	members := map[string][]json.RawMessage{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return RuleInvalidJSONRPC
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return RuleInvalidJSONRPC
		}
		k := kt.(string)
		members[k] = append(members[k], raw)
	}
	for _, v := range members["method"] {
		var s string
		if json.Unmarshal(v, &s) == nil && s == Method {
			return RuleNestedSegment
		}
	}
	// A member name encoding/json matches to an envelope field only by case
	// folding is refused like a duplicate.
	for k := range members {
		if f := foldedField(k); f != "" && f != k {
			return RuleInvalidJSONRPC
		}
	}
	get := map[string]json.RawMessage{}
	for _, k := range []string{"jsonrpc", "method", "id", "params", "result", "error"} {
		switch vs := members[k]; len(vs) {
		case 0:
		case 1:
			get[k] = vs[0]
		default:
			return RuleInvalidJSONRPC // duplicate member
		}
	}
	var version string
	if v, ok := get["jsonrpc"]; !ok || v[0] != '"' || json.Unmarshal(v, &version) != nil || version != "2.0" {
		return RuleInvalidJSONRPC
	}
	if id, ok := get["id"]; ok && !(id[0] == '"' || id[0] == '-' || ('0' <= id[0] && id[0] <= '9') || string(id) == "null") {
		return RuleInvalidJSONRPC
	}
	_, hasResult := get["result"]
	errV, hasError := get["error"]
	params, hasParams := get["params"]
	if m, ok := get["method"]; ok {
		if m[0] != '"' || hasResult || hasError || (hasParams && params[0] != '{' && params[0] != '[') {
			return RuleInvalidJSONRPC
		}
		return 0
	}
	if _, ok := get["id"]; !ok || hasParams || hasResult == hasError || (hasError && errV[0] != '{') {
		return RuleInvalidJSONRPC
	}
	return 0
}

// foldedField returns the envelope field encoding/json assigns a member
// named k to ("" for none), found by asking encoding/json itself.
func foldedField(k string) string {
	var v struct {
		JSONRPC, ID, Method, Params, Result, Error *json.RawMessage
	}
	name, _ := json.Marshal(k)
	if json.Unmarshal([]byte(`{`+string(name)+`:1}`), &v) != nil {
		return ""
	}
	for f, p := range map[string]*json.RawMessage{"jsonrpc": v.JSONRPC, "id": v.ID, "method": v.Method, "params": v.Params, "result": v.Result, "error": v.Error} {
		if p != nil {
			return f
		}
	}
	return ""
}

// checkMessageSeeds are valid and invalid messages of every shape.
var checkMessageSeeds = []string{
	okMsg,
	`{"jsonrpc":"2.0","id":1,"result":null}`,
	`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"x"}}`,
	`{"jsonrpc":"2.0","id":null,"result":[1,2.5e-3,true,false,{"k":"v\u00e9\ud83d\ude00"}]}`,
	`{"jsonrpc":"2.0","method":"ahp\/messageSegment","params":{}}`,
	`{"jsonrpc":"2.0","method":"x","method":"y"}`,
	`{"jsonrpc":"2.0","id":1,"result":1,"error":{}}`,
	`{"jsonrpc":"2.0","id":{},"result":1}`,
	`{"jsonr\u0070c":"2.0","method":"x","params":[]}`,
	` {"jsonrpc" : "2.0" , "method" : "x" , "params" : { "a" : [ 1 , "é" ] } } `,
	"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":{\"t\":\"\xe6\x97\xa5\xff\"}}",
	`{"jsonrpc":"2.0","method":"x","params":{"t":"tab` + "\t" + `"}}`,
	`{"jsonrpc":"2.0","method":"x","params":{"t":"` + strings.Repeat(`ab\"cd\\ef\n日本—`, 20) + `"}}`,
	`{"jsonrpc":"2.0","method":"x","params":{"n":-0.5E+3,"z":0,"l":[null,true,false]}}x`,
	`[{"jsonrpc":"2.0","method":"x"}]`,
	`{"jsonrpc":"2.0","method":"x","Method":"y"}`,
	`{"jsonrpc":"2.0","ıd":1,"result":1}`,
	`{"jſonrpc":"2.0","jsonrpc":"2.0","method":"x"}`,
	`{"jsonrpc":"2.0","method":"x","ID":1}`,
}

// FuzzCheckMessage compares checkMessage (the one-pass validator of a
// reassembled message) with refCheckMessage rule for rule.
func FuzzCheckMessage(f *testing.F) {
	for _, s := range checkMessageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := checkMessage(in), refCheckMessage(in); got != want {
			t.Fatalf("checkMessage(%q) = %v, reference %v", in, got, want)
		}
	})
}

// TestCheckMessageMatchesReference runs the differential check on the
// seeds, on every prefix of them, and on single-byte corruptions, so the
// comparison runs in plain `go test` too.
func TestCheckMessageMatchesReference(t *testing.T) {
	for _, s := range checkMessageSeeds {
		in := []byte(s)
		for n := 0; n <= len(in); n++ {
			if got, want := checkMessage(in[:n]), refCheckMessage(in[:n]); got != want {
				t.Fatalf("checkMessage(%q) = %v, reference %v", in[:n], got, want)
			}
		}
		for i := range in {
			for _, c := range []byte{'"', '\\', '{', '}', ',', ':', 0x01, 0x80, 0xff, ' ', 'u'} {
				m := bytes.Clone(in)
				m[i] = c
				if got, want := checkMessage(m), refCheckMessage(m); got != want {
					t.Fatalf("checkMessage(%q) = %v, reference %v", m, got, want)
				}
			}
		}
	}
}
