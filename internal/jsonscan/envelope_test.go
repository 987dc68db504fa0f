package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/internal/testkit"
)

// refCheckEnvelope is CheckEnvelopeKeys written with encoding/json only,
// for valid JSON.
func refCheckEnvelope(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return ErrNotObject
	}
	seen := map[string]bool{}
	for dec.More() {
		kt, _ := dec.Token()
		var raw json.RawMessage
		_ = dec.Decode(&raw)
		k := kt.(string)
		f := testkit.EnvelopeMember(k)
		switch {
		case f == "":
		case f != k:
			return ErrFoldedKey
		case seen[f]:
			return ErrDuplicateKey
		}
		seen[f] = true
	}
	return nil
}

var envelopeSeeds = []string{
	`{"jsonrpc":"2.0","method":"ping","params":{}}`,
	`{"method":"ping","method":"ahp/messageSegment","params":{}}`,
	`{"jsonrpc":"2.0","Method":"x"}`,
	`{"jsonrpc":"2.0","meth\u006fd":"x","method":"y"}`,
	`{"jſonrpc":"2.0"}`,
	`{"jsonrpc":"2.0","id":1,"ID":2,"result":null}`,
	`{"jsonrpc":"2.0","\u212Aey":1,"id":1,"result":{"id":1,"id":2}}`,
	`{"a":1,"a":2}`,
	`{"jsonrpc":"2.0","id":1,"result":"` + "\xff" + `"}`,
	`[1]`,
	` {} `,
	`{"x":}`,
}

func TestCheckEnvelopeMatchesReference(t *testing.T) {
	for _, s := range envelopeSeeds {
		in := []byte(s)
		for n := 0; n <= len(in); n++ {
			got := CheckEnvelopeKeys(in[:n]) // never panics, valid or not
			if !json.Valid(in[:n]) {
				continue
			}
			if want := refCheckEnvelope(in[:n]); got != want {
				t.Fatalf("CheckEnvelopeKeys(%q) = %v, reference %v", in[:n], got, want)
			}
		}
	}
	if CheckEnvelopeKeys([]byte(envelopeSeeds[1])) != ErrDuplicateKey || CheckEnvelopeKeys([]byte(envelopeSeeds[2])) != ErrFoldedKey {
		t.Fatal("duplicate or folded method accepted")
	}
}

// FuzzCheckEnvelope compares CheckEnvelopeKeys with refCheckEnvelope on
// valid JSON (and checks it never panics on anything else).
func FuzzCheckEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got := CheckEnvelopeKeys(in)
		if !json.Valid(in) {
			return
		}
		if want := refCheckEnvelope(in); got != want {
			t.Fatalf("CheckEnvelopeKeys(%q) = %v, reference %v", in, got, want)
		}
	})
}

func TestEnvelopeKey(t *testing.T) {
	for name, want := range map[string]struct {
		k     Key
		exact bool
	}{
		"method": {KeyMethod, true}, "Method": {KeyMethod, false}, "METHOD": {KeyMethod, false},
		"jſonrpc": {KeyJSONRPC, false}, "\u212Aey": {NoKey, false}, "ıd": {NoKey, false},
		"id": {KeyID, true}, "iD": {KeyID, false}, "params": {KeyParams, true}, "result": {KeyResult, true},
		"error": {KeyError, true}, "errors": {NoKey, false}, "": {NoKey, false}, "channel": {NoKey, false},
	} {
		k, exact := EnvelopeKey([]byte(name))
		if k != want.k || exact != want.exact {
			t.Errorf("EnvelopeKey(%q) = %v, %v; want %v, %v", name, k, exact, want.k, want.exact)
		}
		if ref := testkit.EnvelopeMember(name); (ref != "") != (k != NoKey) || (ref != "" && ref != k.Name()) {
			t.Errorf("EnvelopeKey(%q) = %v, encoding/json assigns it to %q", name, k, ref)
		}
	}
}
