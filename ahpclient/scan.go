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
	if !s.eat('{') {
		return nil, false
	}
	var method []byte
	var params *envelopeParams
	first := true
	for {
		s.ws()
		if s.eat('}') {
			break
		}
		if !first && !s.eat(',') {
			return nil, false
		}
		first = false
		s.ws()
		key, ok := s.plainString()
		if !ok {
			return nil, false
		}
		s.ws()
		if !s.eat(':') {
			return nil, false
		}
		s.ws()
		switch string(key) {
		case "jsonrpc":
			if v, ok := s.plainString(); !ok || string(v) != ahpwire.JSONRPCVersion {
				return nil, false
			}
		case "method":
			if method, ok = s.plainString(); !ok {
				return nil, false
			}
		case "params":
			if params != nil { // encoding/json would merge duplicates
				return nil, false
			}
			if params, ok = s.params(); !ok {
				return nil, false
			}
		default: // "id" included: a request is not a notification
			return nil, false
		}
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
	if !s.eat('{') {
		return nil, false
	}
	p := &envelopeParams{}
	first, sawOrigin := true, false
	for {
		s.ws()
		if s.eat('}') {
			return p, true
		}
		if !first && !s.eat(',') {
			return nil, false
		}
		first = false
		s.ws()
		key, ok := s.plainString()
		if !ok {
			return nil, false
		}
		s.ws()
		if !s.eat(':') {
			return nil, false
		}
		s.ws()
		switch string(key) {
		case "channel":
			if p.Channel, ok = s.str(); !ok {
				return nil, false
			}
		case "serverSeq":
			if p.ServerSeq, ok = s.uint(); !ok {
				return nil, false
			}
		case "rejectionReason":
			if p.RejectionReason, ok = s.str(); !ok {
				return nil, false
			}
		case "origin":
			if sawOrigin { // encoding/json would merge duplicates
				return nil, false
			}
			sawOrigin = true
			if p.Origin, ok = s.origin(); !ok {
				return nil, false
			}
		case "action":
			if s.i >= len(s.b) || s.b[s.i] != '{' {
				return nil, false
			}
			end, ok := skipValue(s.b, s.i)
			if !ok {
				return nil, false
			}
			p.Action = append(json.RawMessage(nil), s.b[s.i:end]...)
			s.i = end
		default:
			if foldsTo(key, paramKeys) {
				return nil, false // encoding/json matches keys case-insensitively
			}
			end, ok := skipValue(s.b, s.i)
			if !ok || !json.Valid(s.b[s.i:end]) { // unknown member: must still be valid JSON
				return nil, false
			}
			s.i = end
		}
	}
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
	if !s.eat('{') {
		return nil, false
	}
	o := &ahpwire.ActionOrigin{}
	first := true
	for {
		s.ws()
		if s.eat('}') {
			return o, true
		}
		if !first && !s.eat(',') {
			return nil, false
		}
		first = false
		s.ws()
		key, ok := s.plainString()
		if !ok {
			return nil, false
		}
		s.ws()
		if !s.eat(':') {
			return nil, false
		}
		s.ws()
		switch string(key) {
		case "clientId":
			if o.ClientID, ok = s.str(); !ok {
				return nil, false
			}
		case "clientSeq":
			if o.ClientSeq, ok = s.uint(); !ok {
				return nil, false
			}
		default:
			if foldsTo(key, originKeys) {
				return nil, false
			}
			end, ok := skipValue(s.b, s.i)
			if !ok || !json.Valid(s.b[s.i:end]) { // unknown member: must still be valid JSON
				return nil, false
			}
			s.i = end
		}
	}
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
