package jsonscan

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

// The string mask, written inline in scan.go (a call costs too much there),
// flags (high bit of each byte) the bytes of x that end the plain-ASCII run
// of a string body: '"', '\\', a control character or a non-ASCII byte. The
// lowest flagged byte is exact; bytes above it may be false positives
// (borrows), so callers only use the lowest one.

// Literal words for scanning true, false and null with one load.
var (
	litTrue  = binary.LittleEndian.Uint32([]byte("true"))
	litFals  = binary.LittleEndian.Uint32([]byte("fals"))
	litNull  = binary.LittleEndian.Uint32([]byte("null"))
	numStart = [256]bool{'-': true, '0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}
)

// SkipValue validates the JSON value starting at or after b[i] (leading
// whitespace allowed), including UTF-8 inside its strings, and returns the
// index just after it. Nesting is handled with an explicit stack (at most
// maxDepth levels, as encoding/json), so hostile depth cannot overflow the
// goroutine stack.
func SkipValue(b []byte, i int) (int, bool) {
	var small [64]byte
	stack := small[:0]
	var top byte // innermost container: 0, '{' or '['
	inKey := false
	var c byte

value:
	if i < len(b) && b[i] <= ' ' {
		i = SkipWS(b, i)
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
			i = SkipWS(b, i)
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
		if c != '-' && c != '0' {
			// Integer fast path: skip digits 8 at a time; anything with a
			// fraction or exponent goes to ScanNumber from the start.
			j := i + 1
			for j+8 <= len(b) {
				x := binary.LittleEndian.Uint64(b[j:])
				// High bit of each non-digit byte; the lowest one is exact.
				nd := ((x - 0x3030303030303030) | (x + 0x4646464646464646) | x) & swarHi
				if nd == 0 {
					j += 8
					continue
				}
				j += bits.TrailingZeros64(nd) >> 3
				if c = b[j]; c != '.' && c != 'e' && c != 'E' {
					i = j
					goto after
				}
				break
			}
		}
		var ok bool
		if i, ok = ScanNumber(b, i); !ok {
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
		i = SkipWS(b, i)
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
		i = SkipWS(b, i)
	}
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	inKey = true

str: // b[i] == '"' opens a string
	i++
	// Short strings (most keys and values): one word decides.
	if i+8 <= len(b) {
		x := binary.LittleEndian.Uint64(b[i:])
		q := (x ^ 0x2222222222222222) - swarLo
		m := (q | ((x ^ 0x5c5c5c5c5c5c5c5c) - swarLo) | (x - 0x2020202020202020) | x) & swarHi
		if m == 0 {
			i += 8
		} else if m&-m&q&^x != 0 { // the first special byte is the closing quote
			i += bits.TrailingZeros64(m)>>3 + 1
			goto strEnd
		}
	}
	// Longer strings, escapes, non-ASCII: the general string scanner.
	{
		var ok bool
		if i, _, ok = scanStringBody(b, i, false); !ok {
			return i, false
		}
	}
strEnd:
	if !inKey {
		goto after
	}
	if i < len(b) && b[i] <= ' ' {
		i = SkipWS(b, i)
	}
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	i++
	goto value
}
