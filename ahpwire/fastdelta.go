package ahpwire

import (
	"unicode/utf8"
)

// A model streams tens of thousands of chat/delta actions per reply, and
// the host encodes each one: marshalChatDelta writes one without
// encoding/json's reflection and re-compaction, byte for byte as
// json.Marshal writes it (FuzzMarshalChatDelta checks that).

// marshalChatDelta encodes d (without _meta) as MarshalAction does.
func marshalChatDelta(d *ChatDelta) []byte {
	b := make([]byte, 0, len(d.Content)+len(d.TurnID)+len(d.PartID)+64)
	b = append(b, `{"type":"`+ActionChatDelta+`","turnId":`...)
	b = appendJSONString(b, d.TurnID)
	b = append(b, `,"partId":`...)
	b = appendJSONString(b, d.PartID)
	b = append(b, `,"content":`...)
	b = appendJSONString(b, d.Content)
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as encoding/json encodes a string: HTML
// characters, controls, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
