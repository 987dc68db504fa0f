package testkit

import "encoding/json"

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
