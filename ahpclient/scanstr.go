package ahpclient

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// fastString reads the JSON string at s.i and unescapes it without
// encoding/json (whose string decoding dominates big deltas). ok is false
// for anything unusual — invalid UTF-8, unpaired surrogates, malformed
// escapes, control characters — and the caller falls back to encoding/json,
// so the result never differs from it (FuzzStreamAction checks this).
func (s *scanner) fastString() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start := s.i
	var out []byte
	seg := start
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			var v []byte
			if out == nil {
				v = s.b[start:s.i]
			} else {
				v = append(out, s.b[seg:s.i]...)
			}
			s.i++
			if !utf8.Valid(v) {
				return "", false
			}
			return string(v), true
		case c < 0x20:
			return "", false
		case c == '\\':
			if out == nil {
				out = make([]byte, 0, len(s.b)-start)
			}
			out = append(out, s.b[seg:s.i]...)
			if s.i+1 >= len(s.b) {
				return "", false
			}
			switch e := s.b[s.i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
				s.i += 2
			case 'b':
				out, s.i = append(out, '\b'), s.i+2
			case 'f':
				out, s.i = append(out, '\f'), s.i+2
			case 'n':
				out, s.i = append(out, '\n'), s.i+2
			case 'r':
				out, s.i = append(out, '\r'), s.i+2
			case 't':
				out, s.i = append(out, '\t'), s.i+2
			case 'u':
				r, n, ok := unicodeEscape(s.b[s.i:])
				if !ok {
					return "", false
				}
				out = utf8.AppendRune(out, r)
				s.i += n
			default:
				return "", false
			}
			seg = s.i
			continue
		}
		s.i++
	}
	return "", false
}

// unicodeEscape decodes \uXXXX (or a \uXXXX\uXXXX surrogate pair) at the
// start of b and returns the rune and the bytes consumed. Unpaired
// surrogates are refused.
func unicodeEscape(b []byte) (rune, int, bool) {
	r, ok := hex4(b)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 6, true
	}
	if r >= 0xDC00 { // a low surrogate first
		return 0, 0, false
	}
	r2, ok := hex4(b[6:])
	if !ok {
		return 0, 0, false
	}
	d := utf16.DecodeRune(r, r2)
	if d == utf8.RuneError {
		return 0, 0, false
	}
	return d, 12, true
}

// hex4 parses `\uXXXX` at the start of b.
func hex4(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

var streamKeys = []string{"type", "turnId", "partId", "content", "_meta"}

// scanStreamAction decodes a chat/delta or chat/reasoning action with the
// hand-written scanner; ok is false for anything else or anything unusual.
func scanStreamAction(raw []byte) (ahpwire.Action, bool) {
	s := scanner{b: raw}
	s.ws()
	var typ, turnID, partID, content string
	var meta []byte
	if !s.object(func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "type":
			var v []byte
			v, ok = s.plainString()
			typ = string(v)
		case "turnId":
			turnID, ok = s.fastString()
		case "partId":
			partID, ok = s.fastString()
		case "content":
			content, ok = s.fastString()
		case "_meta":
			if meta != nil { // encoding/json would merge duplicate maps
				return false
			}
			end, ok := skipValue(s.b, s.i)
			if !ok {
				return false
			}
			meta = s.b[s.i:end]
			s.i = end
			return true
		default:
			ok = s.unknown(key, streamKeys)
		}
		return ok
	}) {
		return nil, false
	}
	s.ws()
	if s.i != len(raw) {
		return nil, false
	}
	var m ahpwire.Meta
	if meta != nil && string(meta) != "null" {
		if json.Unmarshal(meta, &m) != nil {
			return nil, false
		}
	}
	switch typ {
	case ahpwire.ActionChatDelta:
		return &ahpwire.ChatDelta{TurnID: turnID, PartID: partID, Content: content, Meta: m}, true
	case ahpwire.ActionChatReasoning:
		return &ahpwire.ChatReasoning{TurnID: turnID, PartID: partID, Content: content, Meta: m}, true
	}
	return nil, false
}
