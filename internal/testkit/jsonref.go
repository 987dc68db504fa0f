package testkit

import (
	"bytes"
	"encoding/json"
)

// EnvelopeMember is the reference oracle for JSON-RPC envelope keys: the
// envelope member ("jsonrpc", "id", "method", "params", "result", "error")
// that encoding/json assigns an object member named name to, or "" for
// none. It asks encoding/json itself, so case folding (e.g. "Method",
// "jſonrpc") is whatever the standard library does; the scanner's and the
// client's differential tests compare against it.
func EnvelopeMember(name string) string {
	var v struct {
		JSONRPC, ID, Method, Params, Result, Error *json.RawMessage
	}
	quoted, _ := json.Marshal(name)
	if json.Unmarshal([]byte(`{`+string(quoted)+`:1}`), &v) != nil {
		return ""
	}
	for f, p := range map[string]*json.RawMessage{"jsonrpc": v.JSONRPC, "id": v.ID, "method": v.Method, "params": v.Params, "result": v.Result, "error": v.Error} {
		if p != nil {
			return f
		}
	}
	return ""
}

// The verdicts of EnvelopeKeys.
const (
	EnvelopeNotObject = "not an object"
	EnvelopeFolded    = "envelope member named by case folding"
	EnvelopeDuplicate = "envelope member named twice"
)

// EnvelopeKeys is the reference oracle for the envelope-key check, with
// encoding/json only: for the valid JSON b it returns "" when b is an
// object naming each envelope member at most once and by its exact name,
// else the first problem met (EnvelopeNotObject, EnvelopeFolded,
// EnvelopeDuplicate).
func EnvelopeKeys(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return EnvelopeNotObject
	}
	seen := map[string]bool{}
	for dec.More() {
		kt, _ := dec.Token()
		var raw json.RawMessage
		_ = dec.Decode(&raw)
		k := kt.(string)
		f := EnvelopeMember(k)
		switch {
		case f == "":
		case f != k:
			return EnvelopeFolded
		case seen[f]:
			return EnvelopeDuplicate
		}
		seen[f] = true
	}
	return ""
}
