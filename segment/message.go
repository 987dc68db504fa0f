package segment

import "unicode/utf8"

const version20 = "2.0"

// Parsed is a message accepted by ParseMessage: the raw JSON of each
// JSON-RPC member (nil when absent), aliasing the message.
type Parsed struct {
	JSONRPC, ID, Method, Params, Result, Error []byte
}

// ParseMessage is CheckMessage that also returns where each member is, for a
// decoder that builds the message from them instead of parsing it again (so
// the message is validated once, here).
func ParseMessage(msg []byte) (Parsed, error) {
	var e envelope
	if rule := e.check(msg); rule != 0 {
		return Parsed{}, violation(rule, nil, -1, "")
	}
	return Parsed{
		JSONRPC: e.jsonrpc.raw(msg), ID: e.id.raw(msg), Method: e.method.raw(msg),
		Params: e.params.raw(msg), Result: e.result.raw(msg), Error: e.error.raw(msg),
	}, nil
}

// raw returns the value's JSON text (quotes included), or nil if absent.
func (v span) raw(b []byte) []byte {
	switch v.kind {
	case 0:
		return nil
	case '"':
		return b[v.start-1 : v.end+1]
	}
	return b[v.start:v.end]
}

// checkMessage validates a reassembled message: valid UTF-8 and exactly one
// JSON-RPC 2.0 request, notification or response object, not itself a
// segment. It returns 0 when the message is acceptable.
func checkMessage(b []byte) Rule {
	var e envelope
	return e.check(b)
}

// check is checkMessage, leaving the envelope in e.
func (e *envelope) check(b []byte) Rule {
	if !e.scan(b, scanStrict) {
		if !utf8.Valid(b) {
			return RuleInvalidUTF8
		}
		return RuleInvalidJSONRPC
	}
	if e.methodIsSegment {
		return RuleNestedSegment
	}
	if e.dup || !e.jsonrpc.is(b, version20) {
		return RuleInvalidJSONRPC
	}
	if e.id.kind != 0 && !validID(b, e.id) {
		return RuleInvalidJSONRPC
	}
	if e.method.kind != 0 {
		// Request or notification.
		if e.method.kind != '"' || e.result.kind != 0 || e.error.kind != 0 {
			return RuleInvalidJSONRPC
		}
		if e.params.kind != 0 && (e.params.kind != 'o' || (b[e.params.start] != '{' && b[e.params.start] != '[')) {
			return RuleInvalidJSONRPC
		}
		return 0
	}
	// Response: an id and exactly one of result / error (an object).
	if e.id.kind == 0 || e.params.kind != 0 || (e.result.kind != 0) == (e.error.kind != 0) {
		return RuleInvalidJSONRPC
	}
	if e.error.kind != 0 && (e.error.kind != 'o' || b[e.error.start] != '{') {
		return RuleInvalidJSONRPC
	}
	return 0
}

// validID reports whether an id value is a string, a number or null.
func validID(b []byte, v span) bool {
	switch v.kind {
	case '"', 'n':
		return true
	case 'o':
		return b[v.start] == 'n' // null
	}
	return false
}
