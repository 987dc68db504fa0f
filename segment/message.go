package segment

import "unicode/utf8"

var version20 = []byte("2.0")

// checkMessage validates a reassembled message: valid UTF-8 and exactly one
// JSON-RPC 2.0 request, notification or response object, not itself a
// segment. It returns 0 when the message is acceptable.
func checkMessage(b []byte) Rule {
	var e envelope
	if !e.scan(b, scanStrict) {
		if !utf8.Valid(b) {
			return RuleInvalidUTF8
		}
		return RuleInvalidJSONRPC
	}
	if e.methodIsSegment {
		return RuleNestedSegment
	}
	if e.dup || e.jsonrpc.kind != '"' || !stringEquals(b, e.jsonrpc, version20) {
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
