package ahpclient

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// scanActionFrame is a hand-written parser for the common shape of an
// `action` notification. It extracts the envelope header (channel,
// serverSeq, origin, rejectionReason) and the extent of the raw action
// without encoding/json, which makes the read loop several times cheaper.
// It returns ok=false for anything unusual (escaped keys or values, an id,
// numbers that are not plain integers, unexpected types, trailing data);
// the caller then uses encoding/json, so it never decides differently from
// the slow path on input that path accepts (FuzzDecodeFrame checks this).
func scanActionFrame(b []byte) (p *envelopeParams, ok bool) {
	s := scanner{b: b}
	s.ws()
	var method []byte
	var params *envelopeParams
	if !s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "jsonrpc":
			var v []byte
			v, ok = s.plainString()
			ok = ok && string(v) == ahpwire.JSONRPCVersion
		case "method":
			method, ok = s.plainString()
		case "params":
			if params != nil { // encoding/json would merge duplicates
				return false
			}
			params, ok = s.params()
		default: // "id" included: a request is not a notification
			ok = false
		}
		return ok
	}) {
		return nil, false
	}
	s.ws()
	if s.i != len(b) || string(method) != ahpwire.MethodAction || params == nil {
		return nil, false
	}
	return params, true
}

// scanner walks a byte slice.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// object reads a JSON object at s.i: '{', then members separated by ','
// up to '}', white space allowed between tokens. Each key must be a plain
// string (see plainString); field is called with s.i at the member's value
// (white space skipped) and must consume the value, returning false to
// reject the object. object returns false on any syntax error.
func (s *scanner) object(field func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	for first := true; ; first = false {
		s.ws()
		if s.eat('}') {
			return true
		}
		if !first && !s.eat(',') {
			return false
		}
		s.ws()
		key, ok := s.plainString()
		if !ok {
			return false
		}
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		if !field(key) {
			return false
		}
	}
}

// unknown skips the value of a member whose key is not one of known. It
// refuses keys that fold to a known one (encoding/json matches object keys
// case-insensitively) and values that are not valid JSON.
func (s *scanner) unknown(key []byte, known []string) bool {
	if foldsTo(key, known) {
		return false
	}
	end, ok := skipValue(s.b, s.i)
	if !ok || !json.Valid(s.b[s.i:end]) {
		return false
	}
	s.i = end
	return true
}

// plainString reads a string without escapes or control characters and
// returns its bytes (aliasing the input).
func (s *scanner) plainString() ([]byte, bool) {
	if !s.eat('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			v := s.b[start:s.i]
			s.i++
			return v, true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		s.i++
	}
	return nil, false
}

// str reads a string; escaped strings are unquoted by encoding/json.
func (s *scanner) str() (string, bool) {
	start := s.i
	if v, ok := s.plainString(); ok {
		return string(v), true
	}
	s.i = start
	end, ok := skipString(s.b, start)
	if !ok {
		return "", false
	}
	var out string
	if json.Unmarshal(s.b[start:end], &out) != nil {
		return "", false
	}
	s.i = end
	return out, true
}

// uint reads a non-negative integer without sign, fraction or exponent.
func (s *scanner) uint() (uint64, bool) {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	if s.i == start || (s.b[start] == '0' && s.i-start > 1) {
		return 0, false
	}
	if s.i < len(s.b) {
		switch s.b[s.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	n, err := strconv.ParseUint(string(s.b[start:s.i]), 10, 64)
	return n, err == nil
}

// params reads the envelope object.
func (s *scanner) params() (*envelopeParams, bool) {
	p := &envelopeParams{}
	sawOrigin := false
	if !s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "channel":
			p.Channel, ok = s.str()
		case "serverSeq":
			p.ServerSeq, ok = s.uint()
		case "rejectionReason":
			p.RejectionReason, ok = s.str()
		case "origin":
			if sawOrigin { // encoding/json would merge duplicates
				return false
			}
			sawOrigin = true
			p.Origin, ok = s.origin()
		case "action":
			if s.i >= len(s.b) || s.b[s.i] != '{' {
				return false
			}
			end, ok := skipValue(s.b, s.i)
			if !ok {
				return false
			}
			p.Action = append(json.RawMessage(nil), s.b[s.i:end]...)
			s.i = end
			return true
		default:
			ok = s.unknown(key, paramKeys)
		}
		return ok
	}) {
		return nil, false
	}
	return p, true
}

var (
	paramKeys  = []string{"channel", "serverSeq", "rejectionReason", "origin", "action"}
	originKeys = []string{"clientId", "clientSeq"}
)

// foldsTo reports whether key equals one of keys under Unicode case
// folding (the way encoding/json matches object keys to struct fields).
func foldsTo(key []byte, keys []string) bool {
	for _, k := range keys {
		if strings.EqualFold(string(key), k) {
			return true
		}
	}
	return false
}

// origin reads null or {clientId, clientSeq}.
func (s *scanner) origin() (*ahpwire.ActionOrigin, bool) {
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return nil, true
	}
	o := &ahpwire.ActionOrigin{}
	if !s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "clientId":
			o.ClientID, ok = s.str()
		case "clientSeq":
			o.ClientSeq, ok = s.uint()
		default:
			ok = s.unknown(key, originKeys)
		}
		return ok
	}) {
		return nil, false
	}
	return o, true
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\\':
			i++
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		}
	}
	return 0, false
}

// skipValue returns the index after the JSON value starting at b[i]. It is
// a structural skip (balanced brackets, well-formed strings, literal and
// number characters); full validation is left to the slow path, which is
// used whenever this returns false.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		var stack []byte
		for i < len(b) {
			switch c := b[i]; c {
			case '"':
				end, ok := skipString(b, i)
				if !ok {
					return 0, false
				}
				i = end
				continue
			case '{', '[':
				stack = append(stack, c)
			case '}', ']':
				if len(stack) == 0 || (c == '}') != (stack[len(stack)-1] == '{') {
					return 0, false
				}
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return 0, false
	default:
		start := i
		for i < len(b) {
			c := b[i]
			if (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' || c == '.' || c == 'E' {
				i++
				continue
			}
			break
		}
		return i, i > start
	}
}
