package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// This file holds the structural (non-validating) skips: they find where a
// value or string ends without checking what is inside, for callers that
// either validate later or only need a cheap routing decision.

// StringEnd finds the end of the string starting at b[i] == '"' without
// validating its body: the first quote preceded by an even number of
// backslashes. It returns the index after the closing quote.
func StringEnd(b []byte, i int) (int, bool) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return len(b), false
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// SkipStructural skips the value at b[i] without validating it.
func SkipStructural(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return StringEnd(b, i)
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
				if i, ok = StringEnd(b, i); !ok {
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
