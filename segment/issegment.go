package segment

import (
	"encoding/binary"
	"math/bits"
)

// IsSegment reports whether frame is a JSON object whose first top-level
// "method" member is the string "ahp/messageSegment" (escaped spellings
// included). It does not validate the frame (Reassembler.Feed does) and
// costs O(1) when "method" comes before any large member, as in frames
// written by Splitter.
func IsSegment(frame []byte) bool {
	b := frame
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipWS(b, i+1)
	for i < len(b) && b[i] == '"' {
		ke, kesc, ok := scanString(b, i)
		if !ok {
			return false
		}
		isMethod := keyEquals(b[i+1:ke-1], kesc, "method")
		i = skipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipWS(b, i+1)
		if isMethod {
			if i >= len(b) || b[i] != '"' {
				return false
			}
			ve, vesc, ok := scanString(b, i)
			return ok && stringEquals(b, span{kind: '"', start: i + 1, end: ve - 1, esc: vesc}, methodBytes)
		}
		if i, ok = skipFast(b, i); !ok {
			return false
		}
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ',' {
			return false
		}
		i = skipWS(b, i+1)
	}
	return false
}

// keyEquals compares a validated key body with want.
func keyEquals(key []byte, esc bool, want string) bool {
	if !esc {
		return string(key) == want
	}
	var buf [32]byte
	return len(key) <= 6*len(want) && string(unescape(buf[:0], key)) == want
}

// skipFast skips the value at b[i] without validating it.
func skipFast(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return fastStringEnd(b, i)
	case '{', '[':
		depth := 0
		for {
			i = nextStructural(b, i)
			if i >= len(b) {
				return i, false
			}
			switch b[i] {
			case '"':
				var ok bool
				if i, ok = fastStringEnd(b, i); !ok {
					return i, false
				}
				continue
			case '{', '[':
				depth++
			default: // '}', ']'
				depth--
			}
			i++
			if depth == 0 {
				return i, true
			}
		}
	default:
		start := i
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i, i > start
			}
			i++
		}
		return i, i > start
	}
}

// nextStructural returns the index of the first '"', '{', '}', '[' or ']'
// at or after i, or len(b).
func nextStructural(b []byte, i int) int {
	for i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		y := x | 0x2020202020202020 // '[' -> '{', ']' -> '}'
		q := x ^ 0x2222222222222222
		o := y ^ 0x7b7b7b7b7b7b7b7b
		c := y ^ 0x7d7d7d7d7d7d7d7d
		m := ((q - swarLo) &^ q) | ((o - swarLo) &^ o) | ((c - swarLo) &^ c)
		if m &= swarHi; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case '"', '{', '}', '[', ']':
			return i
		}
	}
	return i
}
