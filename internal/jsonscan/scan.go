package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// This file is a small, allocation-free JSON scanner. It validates the JSON
// grammar (RFC 8259) including UTF-8 inside strings, so the reassembled
// message can be checked in one pass at memory-like speed instead of through
// a generic encoding/json parse.

// maxDepth bounds array/object nesting, as encoding/json does.
const maxDepth = 10000

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

// SkipWS returns the index of the first non-whitespace byte at or after i.
func SkipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// ScanString scans the JSON string whose opening quote is at b[i]. It returns
// the index just after the closing quote and whether the string contains
// escapes. ok is false for an unterminated string, a control character, a
// bad escape or invalid UTF-8.
func ScanString(b []byte, i int) (end int, esc bool, ok bool) {
	i++
	// Short strings (most keys and values): one word decides.
	if i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		m := (((x ^ 0x2222222222222222) - swarLo) | ((x ^ 0x5c5c5c5c5c5c5c5c) - swarLo) | (x - 0x2020202020202020) | x) & swarHi
		if m == 0 {
			i += 8
		} else if p := i + bits.TrailingZeros64(m)>>3; b[p] == '"' {
			return p + 1, false, true
		}
	}
	return scanStringBody(b, i, false)
}

// scanStringBody continues ScanString at b[i], inside the body of a string
// (after the opening quote and any bytes already known to be plain ASCII);
// esc says whether escapes were seen already.
func scanStringBody(b []byte, i int, esc bool) (int, bool, bool) {
	for {
		// Skip plain ASCII 16 bytes at a time. A byte is flagged when it is
		// '"', '\\', a control or non-ASCII. There are no false negatives; a
		// byte after a flagged one may be a false positive (borrow), which
		// the byte loop below simply steps over.
		for i+16 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			y := binary.LittleEndian.Uint64(b[i+8:])
			mx := (((x ^ 0x2222222222222222) - swarLo) | ((x ^ 0x5c5c5c5c5c5c5c5c) - swarLo) | (x - 0x2020202020202020) | x) & swarHi
			my := (((y ^ 0x2222222222222222) - swarLo) | ((y ^ 0x5c5c5c5c5c5c5c5c) - swarLo) | (y - 0x2020202020202020) | y) & swarHi
			if mx|my == 0 {
				i += 16
				continue
			}
			// Walk the flagged bytes of the window in order, handling the
			// common events (closing quote, two-character escape) without
			// reloading; anything else goes to the byte loop.
			skip, stop := i, -1
			for w, m := 0, mx; w < 2 && stop < 0; w, m = w+1, my {
				for ; m != 0; m &= m - 1 {
					p := i + 8*w + bits.TrailingZeros64(m)>>3
					if p < skip {
						continue // the character after a backslash
					}
					c := b[p]
					if c == '"' {
						return p + 1, esc, true
					}
					if c == '\\' && p+1 < len(b) && simpleEscape[b[p+1]] {
						esc = true
						skip = p + 2
						continue
					}
					stop = p
					break
				}
			}
			if stop >= 0 {
				i = stop
				break
			}
			i = max(i+16, skip)
		}
		if i >= len(b) {
			return i, esc, false
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, esc, true
		case c == '\\':
			esc = true
			if i+1 >= len(b) {
				return i, esc, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex4(b[i+2:i+6]) {
					return i, esc, false
				}
				i += 6
			default:
				return i, esc, false
			}
		case c < 0x20:
			return i, esc, false
		case c < utf8.RuneSelf:
			i++
		default:
			// Validate a run of multi-byte sequences in place; 3-byte
			// ones without special second-byte ranges (lead E1–EC, EE,
			// EF: most of the BMP, CJK included) inline.
			for i+3 <= len(b) && b[i] >= utf8.RuneSelf {
				// Two such characters per step: leads 1110xxxx at bytes 0
				// and 3 (not E0 or ED, which need range checks), 10xxxxxx
				// at bytes 1, 2, 4 and 5.
				for i+8 <= len(b) {
					x := binary.LittleEndian.Uint64(b[i:])
					if x&0x0000C0C0F0C0C0F0 != 0x00008080E08080E0 ||
						byte(x) == 0xE0 || byte(x) == 0xED || byte(x>>24) == 0xE0 || byte(x>>24) == 0xED {
						break
					}
					i += 6
				}
				if i+3 > len(b) || b[i] < utf8.RuneSelf {
					break
				}
				if l := b[i]; l >= 0xE1 && l != 0xED && l <= 0xEF &&
					binary.LittleEndian.Uint16(b[i+1:])&0xC0C0 == 0x8080 {
					i += 3
					continue
				}
				n := utf8Seq(b[i:])
				if n == 0 {
					return i, esc, false
				}
				i += n
			}
			if i < len(b) && b[i] >= utf8.RuneSelf {
				n := utf8Seq(b[i:]) // fewer than 3 bytes left
				if n == 0 {
					return i, esc, false
				}
				i += n
			}
		}
	}
}

// utf8Seq returns the length of the valid multi-byte UTF-8 sequence at the
// start of p (p[0] ≥ 0x80), or 0 if it is invalid.
func utf8Seq(p []byte) int {
	c := p[0]
	switch {
	case c < 0xC2:
		return 0
	case c < 0xE0:
		if len(p) < 2 || p[1]&0xC0 != 0x80 {
			return 0
		}
		return 2
	case c < 0xF0:
		if len(p) < 3 || p[2]&0xC0 != 0x80 {
			return 0
		}
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
		if p[1] < lo || p[1] > hi {
			return 0
		}
		return 3
	case c < 0xF5:
		if len(p) < 4 || p[2]&0xC0 != 0x80 || p[3]&0xC0 != 0x80 {
			return 0
		}
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
		if p[1] < lo || p[1] > hi {
			return 0
		}
		return 4
	}
	return 0
}

// simpleEscape marks the characters allowed after a backslash, except u.
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// isHex4 reports whether h holds exactly four hex digits.
func isHex4(h []byte) bool {
	for _, c := range h {
		if hexVal(c) < 0 {
			return false
		}
	}
	return len(h) == 4
}

// hexVal returns the value of hex digit c, or -1.
func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// ScanNumber scans a JSON number starting at b[i] and returns the index after it.
func ScanNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, false
	}
	switch {
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

// skipDigits returns the index of the first non-digit at or after i.
func skipDigits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
