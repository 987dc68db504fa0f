package ahpclient

import (
	"encoding/json"
	"strconv"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/jsonscan"
)

// scanActionFrame is the read loop's fast path for the common shape of an
// `action` notification, on the shared scanner (internal/jsonscan). It
// extracts the envelope header (channel, serverSeq, origin,
// rejectionReason) and the raw action, validating every byte it accepts
// (grammar and UTF-8), without encoding/json, which makes the read loop
// several times cheaper (BenchmarkDecodeActionFrame). It returns ok=false
// for anything unusual (an id, unknown top-level members, duplicate or
// case-folded names, invalid UTF-8, numbers that are not plain integers,
// unexpected types); the caller then uses encoding/json, so it never decides
// differently from the slow path (FuzzDecodeFrame checks this on every
// input).
func scanActionFrame(b []byte) (p *envelopeParams, ok bool) {
	var isAction bool
	var params *envelopeParams
	var sawVersion, sawMethod bool
	if !jsonscan.Object(b, func(key []byte, i int) (int, bool) {
		switch string(key) {
		case "jsonrpc":
			end, is, ok := jsonscan.StringIs(b, i, ahpwire.JSONRPCVersion)
			if sawVersion || !ok || !is {
				return end, false
			}
			sawVersion = true
			return end, true
		case "method":
			if sawMethod {
				return i, false
			}
			sawMethod = true
			end, is, ok := jsonscan.StringIs(b, i, ahpwire.MethodAction)
			isAction = is
			return end, ok
		case "params":
			if params != nil {
				return i, false
			}
			var end int
			params, end, ok = scanParams(b, i)
			return end, ok
		}
		return i, false // "id" included: a request is not a notification
	}) {
		return nil, false
	}
	if !sawVersion || !isAction || params == nil {
		return nil, false
	}
	return params, true
}

// scanUint reads a non-negative integer without sign, fraction or exponent.
func scanUint(b []byte, i int) (uint64, int, bool) {
	start := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == start || (b[start] == '0' && i-start > 1) {
		return 0, i, false
	}
	if i < len(b) {
		switch b[i] {
		case '.', 'e', 'E':
			return 0, i, false
		}
	}
	n, err := strconv.ParseUint(string(b[start:i]), 10, 64)
	return n, i, err == nil
}

// skipUnknown skips the value at b[i] of a member whose name is none of
// known. It refuses names that encoding/json would match to a known member
// by case folding, and values that are not valid JSON.
func skipUnknown(b []byte, i int, key []byte, known []string) (int, bool) {
	for _, k := range known {
		if jsonscan.FoldEqual(key, k) {
			return i, false
		}
	}
	return jsonscan.SkipValue(b, i)
}

var (
	paramKeys  = []string{"channel", "serverSeq", "rejectionReason", "origin", "action"}
	originKeys = []string{"clientId", "clientSeq"}
)

// scanParams reads the envelope object at b[i]. Repeated members take the
// last value, as with encoding/json (origin, which encoding/json would
// merge, is refused).
func scanParams(b []byte, i int) (*envelopeParams, int, bool) {
	p := &envelopeParams{}
	sawOrigin := false
	end, ok := jsonscan.ObjectAt(b, i, func(key []byte, i int) (int, bool) {
		switch string(key) {
		case "channel":
			v, end, ok := jsonscan.String(b, i)
			p.Channel = v
			return end, ok
		case "serverSeq":
			v, end, ok := scanUint(b, i)
			p.ServerSeq = v
			return end, ok
		case "rejectionReason":
			v, end, ok := jsonscan.String(b, i)
			p.RejectionReason = v
			return end, ok
		case "origin":
			if sawOrigin {
				return i, false
			}
			sawOrigin = true
			o, end, ok := scanOrigin(b, i)
			p.Origin = o
			return end, ok
		case "action":
			if i >= len(b) || b[i] != '{' {
				return i, false
			}
			end, ok := jsonscan.SkipValue(b, i)
			p.Action = append(json.RawMessage(nil), b[i:end]...)
			return end, ok
		}
		return skipUnknown(b, i, key, paramKeys)
	})
	return p, end, ok
}

// scanOrigin reads null or {clientId, clientSeq} at b[i].
func scanOrigin(b []byte, i int) (*ahpwire.ActionOrigin, int, bool) {
	if len(b)-i >= 4 && string(b[i:i+4]) == "null" {
		return nil, i + 4, true
	}
	o := &ahpwire.ActionOrigin{}
	end, ok := jsonscan.ObjectAt(b, i, func(key []byte, i int) (int, bool) {
		switch string(key) {
		case "clientId":
			v, end, ok := jsonscan.String(b, i)
			o.ClientID = v
			return end, ok
		case "clientSeq":
			v, end, ok := scanUint(b, i)
			o.ClientSeq = v
			return end, ok
		}
		return skipUnknown(b, i, key, originKeys)
	})
	return o, end, ok
}
