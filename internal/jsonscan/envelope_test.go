package jsonscan

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/internal/testkit"
)

// refCheckEnvelope is CheckEnvelopeKeys written with encoding/json only
// (testkit.EnvelopeKeys), for valid JSON.
func refCheckEnvelope(b []byte) error {
	switch testkit.EnvelopeKeys(b) {
	case testkit.EnvelopeNotObject:
		return ErrNotObject
	case testkit.EnvelopeFolded:
		return ErrFoldedKey
	case testkit.EnvelopeDuplicate:
		return ErrDuplicateKey
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
