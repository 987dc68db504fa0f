package render

import (
	"strconv"
	"strings"
)

// maxCSICount bounds every count of a cursor, erase, insert, delete,
// scroll or repeat sequence fed to the emulator: x/vt loops over the count
// (ESC[99999999X cost 0.28 s; 200 of them, 2.4 KB, froze the UI for 47 s),
// and no count needs to exceed the largest screen (1000 columns).
const maxCSICount = 1000

// maxCSILen bounds a buffered sequence; a longer one passes through as is
// (the emulator's parser keeps at most 32 parameters anyway).
const maxCSILen = 256

// clampedFinals are the CSI final bytes whose parameters are counts or
// positions (ICH, CUU–CHA, CUP, ED, EL, IL, DL, DCH, SU, SD, ECH, CBT, HPA,
// HPR, REP, VPA, VPR, HVP, DECSTBM, CHT).
const clampedFinals = "@ABCDEFGHIJKLMPSTXZ`abdefrI"

// csiClamp rewrites a VT stream so that no count of the sequences above
// exceeds maxCSICount. It keeps a sequence split across writes until its
// final byte arrives. Private sequences (ESC [ ? …, modes) are untouched.
type csiClamp struct {
	pending []byte // an unfinished sequence from the previous write
}

// filter returns s with its counts clamped (a trailing unfinished sequence
// is held back for the next call).
func (c *csiClamp) filter(s string) string {
	if len(c.pending) > 0 {
		s = string(c.pending) + s
		c.pending = c.pending[:0]
	}
	if !strings.ContainsAny(s, "\x1b\u009b") && strings.IndexByte(s, 0x9b) < 0 { // ESC, C1 CSI (UTF-8 or a raw byte)
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		start, body := csiStart(s, i)
		if start < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i:start])
		end := body
		for end < len(s) && end-start < maxCSILen && s[end] >= 0x20 && s[end] <= 0x3f {
			end++
		}
		switch {
		case end == len(s) && end-start < maxCSILen: // unfinished: wait for the rest
			c.pending = append(c.pending, s[start:]...)
			return b.String()
		case end-start >= maxCSILen || s[end] < 0x40 || s[end] > 0x7e:
			b.WriteString(s[start:end]) // not a well-formed CSI: as is
			i = end
			continue
		}
		b.WriteString(s[start:body])
		b.WriteString(clampParams(s[body:end], s[end]))
		b.WriteByte(s[end])
		i = end + 1
	}
	return b.String()
}

// csiStart finds the next CSI introducer at or after i: ESC [, the C1 byte
// 0x9b, or U+009B in UTF-8. It returns its position and where its
// parameters start (-1, -1: none).
func csiStart(s string, i int) (int, int) {
	for ; i < len(s); i++ {
		switch {
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[':
			return i, i + 2
		case s[i] == 0x1b && i+1 == len(s):
			return i, i + 1 // ESC at the end: maybe the start of a CSI
		case s[i] == 0x9b && (i == 0 || s[i-1] < 0x80): // not a UTF-8 continuation byte
			return i, i + 1
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9b:
			return i, i + 2
		}
	}
	return -1, -1
}

// clampParams clamps each decimal parameter of p (a sequence's parameter
// and intermediate bytes) to maxCSICount when final takes counts and the
// sequence is not private.
func clampParams(p string, final byte) string {
	if p == "" || strings.IndexByte(clampedFinals, final) < 0 || strings.ContainsAny(p[:1], "<=>?") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		if p[i] < '0' || p[i] > '9' {
			b.WriteByte(p[i])
			i++
			continue
		}
		j := i
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(p[i:j]); err != nil || n > maxCSICount {
			b.WriteString(strconv.Itoa(maxCSICount))
		} else {
			b.WriteString(p[i:j])
		}
		i = j
	}
	return b.String()
}

// frameCost bounds the work one frame hands the emulator, in cells: a
// printed byte costs one, a count sequence (REP, ECH, SU, …) its clamped
// count more. x/vt spends about 1.5 µs a cell, so a frame costs at most
// ~75 ms however the output is built (8,192 × "A ESC[1000b" in 64 KiB
// would cost 12.6 s).
const frameCost = 50_000

// seqCost returns the end of the token starting at s[i] (one byte, or a
// whole CSI sequence) and its cost.
func seqCost(s string, i int) (end, cost int) {
	start, body := -1, 0
	switch {
	case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[':
		start, body = i, i+2
	case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9b:
		start, body = i, i+2
	}
	if start < 0 {
		return i + 1, 1
	}
	end = body
	for end < len(s) && end-start < maxCSILen && s[end] >= 0x20 && s[end] <= 0x3f {
		end++
	}
	if end >= len(s) || s[end] < 0x40 || s[end] > 0x7e {
		return end, end - start
	}
	cost = end + 1 - start
	if p := s[body:end]; strings.IndexByte(clampedFinals, s[end]) >= 0 && (p == "" || !strings.ContainsAny(p[:1], "<=>?")) {
		n := 0
		for k := 0; k < len(p); k++ {
			if c := p[k]; c >= '0' && c <= '9' {
				n = min(n*10+int(c-'0'), maxCSICount)
			} else {
				cost += n
				n = 0
			}
		}
		cost += max(n, 1)
	}
	return end + 1, cost
}

// frameTail returns the end of s that costs at most frameCost, starting
// at a line start when one is in reach, else at a token boundary (the
// output before it would have scrolled past or been overwritten anyway);
// s itself when it fits.
func frameTail(s string) (string, bool) {
	total := 0
	for i := 0; i < len(s); {
		end, c := seqCost(s, i)
		total += c
		i = end
	}
	if total <= frameCost {
		return s, false
	}
	cut := len(s)
	for i, prefix := 0, 0; i < len(s); {
		if total-prefix <= frameCost {
			cut = i
			break
		}
		end, c := seqCost(s, i)
		prefix += c
		i = end
	}
	// From the next line start when it is near (the rest fits all the more).
	if k := strings.IndexByte(s[cut:], '\n'); k >= 0 && k < 4096 && (cut == 0 || s[cut-1] != '\n') {
		cut += k + 1
	}
	return s[cut:], true
}
