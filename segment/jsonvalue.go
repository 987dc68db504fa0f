package segment

import (
	"encoding/binary"
	"math/bits"
)

// This file holds the hot JSON validator used for the final check of a
// reassembled message. It is one function with an explicit state machine
// (goto labels instead of calls), so token-dense JSON costs a few
// instructions per token: strings are skipped 8 bytes per step with a SWAR
// mask that flags '"', '\\', control and non-ASCII bytes; UTF-8 is validated
// only where non-ASCII bytes occur, which the grammar allows only inside
// strings (anywhere else they are a syntax error), so one pass checks both
// the grammar and UTF-8.

// specialMask flags (high bit of each byte) the bytes of x that end the
// plain-ASCII run of a string body: '"', '\\', a control character or a
// non-ASCII byte. The lowest flagged byte is exact; bytes above it may be
// false positives (borrows), so callers only use the lowest one.
func specialMask(x uint64) uint64 {
	return (((x ^ 0x2222222222222222) - swarLo) | ((x ^ 0x5c5c5c5c5c5c5c5c) - swarLo) | (x - 0x2020202020202020) | x) & swarHi
}

// Literal words for scanning true, false and null with one load.
var (
	litTrue  = binary.LittleEndian.Uint32([]byte("true"))
	litFals  = binary.LittleEndian.Uint32([]byte("fals"))
	litNull  = binary.LittleEndian.Uint32([]byte("null"))
	numStart = [256]bool{'-': true, '0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}
)

// skipValue validates the JSON value starting at or after b[i] (leading
// whitespace allowed), including UTF-8 inside its strings, and returns the
// index just after it. Nesting is handled with an explicit stack (at most
// maxDepth levels, as encoding/json), so hostile depth cannot overflow the
// goroutine stack.
func skipValue(b []byte, i int) (int, bool) {
	var small [64]byte
	stack := small[:0]
	var top byte // innermost container: 0, '{' or '['
	inKey := false
	var c byte

value:
	if i < len(b) && b[i] <= ' ' {
		i = skipWS(b, i)
	}
	if i >= len(b) {
		return i, false
	}
	c = b[i]
	switch {
	case c == '"':
		inKey = false
		goto str
	case c == '{' || c == '[':
		if len(stack) >= maxDepth {
			return i, false
		}
		stack = append(stack, c)
		top = c
		i++
		if i < len(b) && b[i] <= ' ' {
			i = skipWS(b, i)
		}
		if i < len(b) && b[i] == c+2 { // empty: '}' or ']'
			i++
			goto pop
		}
		if c == '{' {
			goto key
		}
		goto value
	case numStart[c]:
		var ok bool
		if i, ok = scanNumber(b, i); !ok {
			return i, false
		}
		goto after
	case i+4 <= len(b):
		w := binary.LittleEndian.Uint32(b[i:])
		switch {
		case w == litTrue || w == litNull:
			i += 4
			goto after
		case w == litFals && i+5 <= len(b) && b[i+4] == 'e':
			i += 5
			goto after
		}
		return i, false
	default:
		return i, false
	}

pop:
	stack = stack[:len(stack)-1]
	top = 0
	if len(stack) > 0 {
		top = stack[len(stack)-1]
	}

after: // a complete value ends at b[i]
	if top == 0 {
		return i, true
	}
	if i < len(b) && b[i] <= ' ' {
		i = skipWS(b, i)
	}
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case ',':
		i++
		if top == '{' {
			goto key
		}
		goto value
	case top + 2:
		i++
		goto pop
	}
	return i, false

key:
	if i < len(b) && b[i] <= ' ' {
		i = skipWS(b, i)
	}
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	inKey = true

str: // b[i] == '"' opens a string
	i++
	// Short strings (most keys and values): one word decides.
	if i+8 <= len(b) {
		m := specialMask(binary.LittleEndian.Uint64(b[i:]))
		if m == 0 {
			i += 8
		} else if p := i + bits.TrailingZeros64(m)>>3; b[p] == '"' {
			i = p + 1
			goto strEnd
		}
	}
strLoop:
	for {
		if i+16 > len(b) {
			goto strTail
		}
		x := binary.LittleEndian.Uint64(b[i:])
		y := binary.LittleEndian.Uint64(b[i+8:])
		mx, my := specialMask(x), specialMask(y)
		if mx|my == 0 {
			i += 16
			continue
		}
		// Walk the flagged bytes of the 16-byte window in order, handling
		// closing quotes and two-character escapes without reloading.
		// Only the lowest flagged byte of a word is exact (a borrow can flag
		// the byte above a flagged one), so a flagged byte that is none of
		// the special kinds is simply stepped over... except that it could
		// be a real control byte: those are exact when lowest, and a
		// non-lowest flag is rechecked by value below.
		skip := i
		for w, m := 0, mx; w < 2; w, m = w+1, my {
			for ; m != 0; m &= m - 1 {
				p := i + 8*w + bits.TrailingZeros64(m)>>3
				if p < skip {
					continue // the character after a backslash
				}
				switch c = b[p]; {
				case c == '"':
					i = p + 1
					goto strEnd
				case c == '\\' && p+1 < len(b) && simpleEscape[b[p+1]]:
					skip = p + 2
					continue
				}
				if c >= 0x20 && c < 0x80 && c != '\\' {
					continue // borrow false positive: plain ASCII
				}
				i = p
				goto strSlow
			}
		}
		i = max(i+16, skip)
	}
strSlow: // b[i] is a backslash (not a simple escape), control or non-ASCII byte
	switch c = b[i]; {
	case c == '\\':
		if i+6 <= len(b) && b[i+1] == 'u' && isHex4(b[i+2:i+6]) {
			i += 6
			goto strLoop
		}
		return i, false
	case c >= 0x80:
		// A run of multi-byte characters; 3-byte ones (most of the BMP,
		// CJK included) inline.
		for i+3 <= len(b) && b[i] >= 0x80 {
			if l := b[i]; l >= 0xE1 && l != 0xED && l <= 0xEF &&
				binary.LittleEndian.Uint16(b[i+1:])&0xC0C0 == 0x8080 {
				i += 3
				continue
			}
			n := utf8Seq(b[i:])
			if n == 0 {
				return i, false
			}
			i += n
		}
		goto strLoop
	}
	return i, false // control character
strTail: // fewer than 8 bytes left: one byte at a time
	for i < len(b) {
		switch c = b[i]; {
		case c == '"':
			i++
			goto strEnd
		case c == '\\':
			if i+1 < len(b) && simpleEscape[b[i+1]] {
				i += 2
				continue
			}
			if i+6 <= len(b) && b[i+1] == 'u' && isHex4(b[i+2:i+6]) {
				i += 6
				continue
			}
			return i, false
		case c >= 0x80:
			n := utf8Len(b[i:])
			if n == 0 {
				return i, false
			}
			i += n
		case c < 0x20:
			return i, false
		default:
			i++
		}
	}
	return i, false
strEnd:
	if !inKey {
		goto after
	}
	if i < len(b) && b[i] <= ' ' {
		i = skipWS(b, i)
	}
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	i++
	goto value
}
