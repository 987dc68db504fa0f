package segment

import (
	"bytes"
	"encoding/base64"
	"strconv"

	"github.com/ahptui/ahptui/internal/jsonscan"
)

// b64Alphabet marks the bytes of the standard base64 alphabet plus '='.
var b64Alphabet = func() (t [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") {
		t[c] = true
	}
	return t
}()

// appendSegment decodes the data string of one segment straight into the
// group's buffer. The fast path hands the raw frame bytes to the base64
// decoder; if they do not decode (escapes such as \/ in the string), the
// string is validated and unescaped into a scratch buffer and decoded again.
// With guessed (the end of data is a guess, see envelope.scanParams) a
// failure is returned as is: the caller retries with an exact scan. g is
// changed only on success.
func (r *Reassembler) appendSegment(g *group, frame []byte, v span, guessed bool) (Rule, string) {
	raw := frame[v.start:v.end]
	rule, detail := r.decodeInto(g, raw)
	if rule == 0 || guessed || bytes.IndexByte(raw, '\\') < 0 {
		return rule, detail
	}
	// Slow path: the string has escapes. Validate it as a JSON string,
	// unescape it and decode again.
	if end, _, ok := jsonscan.ScanString(frame, v.start-1); !ok || end != v.end+1 {
		return RuleData, "not a valid JSON string"
	}
	r.scratch = jsonscan.Unescape(r.scratch[:0], raw)
	return r.decodeInto(g, r.scratch)
}

// decodeInto decodes d (a continuation of the group's base64 text) into
// g.buf. It commits only on success; on failure g is unchanged.
func (r *Reassembler) decodeInto(g *group, d []byte) (Rule, string) {
	// The decoded size of this segment's own characters is checked before
	// anything is decoded.
	if dec := int64(len(d)) / 4 * 3; dec > r.lim.MaxFrameBytes {
		return RuleSegmentTooLarge, "decoded " + strconv.FormatInt(dec, 10) + " > " + strconv.FormatInt(r.lim.MaxFrameBytes, 10)
	}
	l := len(g.buf)
	var q [4]byte
	qn := copy(q[:], g.carry[:g.carryN])
	var head [3]byte
	headN := 0
	if qn > 0 {
		k := copy(q[qn:], d)
		for _, c := range d[:k] {
			if !b64Alphabet[c] {
				return RuleData, "invalid base64"
			}
		}
		d = d[k:]
		qn += k
		if qn == 4 {
			n, err := base64.StdEncoding.Decode(head[:], q[:])
			if err != nil || n != 3-padCount(q[:]) {
				return RuleData, "invalid base64"
			}
			headN, qn = n, 0
			if n < 3 && len(d) > 0 {
				return RuleData, "base64 padding before the end"
			}
		}
	}
	m := len(d) &^ 3
	body, rest := d[:m], d[m:]
	exact := m/4*3 - padCount(body)
	if int64(l+headN+exact) > r.lim.MaxMessageBytes {
		return RuleMessageTooLarge, "more than " + strconv.FormatInt(r.lim.MaxMessageBytes, 10) + " bytes"
	}
	for _, c := range rest {
		if !b64Alphabet[c] {
			return RuleData, "invalid base64"
		}
	}
	if len(rest) > 0 && padCount(body) > 0 {
		return RuleData, "base64 padding before the end"
	}
	if !r.grow(g, l+headN+m/4*3, len(d)) {
		return RuleBudgetExceeded, r.lim.Budget.budgetDetail(int64(l + headN + m/4*3 - cap(g.buf)))
	}
	dst := g.buf[l : l+headN+m/4*3]
	copy(dst, head[:headN])
	n, err := b64Decode(dst[headN:], body)
	if err != nil || n != exact {
		return RuleData, "invalid base64"
	}
	g.buf = g.buf[:l+headN+n]
	if qn == 0 {
		g.carryN = copy(g.carry[:], rest)
	} else {
		g.carryN = copy(g.carry[:], q[:qn])
	}
	return 0, ""
}

// grow makes sure cap(g.buf) ≥ need. The buffer grows with the data
// received, never from the declared total alone (a hostile first segment
// with total 65535 must not reserve the whole message): geometrically
// (×4 per step: fewer copies than doubling, still at most 4× what
// arrived), but never past the declared total's estimate (total × this
// segment's raw length ¾ + 3), MaxMessageBytes+3, or what the budget grants.
// raw is the length of this segment's base64 text. It returns false, with g
// unchanged, when the budget refuses the bytes.
func (r *Reassembler) grow(g *group, need, raw int) bool {
	if need <= cap(g.buf) {
		return true
	}
	c := int64(max(4*cap(g.buf), need))
	if est := g.total * (int64(raw)/4*3 + 3); c > est {
		c = est
	}
	if limit := r.lim.MaxMessageBytes + 3; c > limit {
		c = limit
	}
	c = max(c, int64(need))
	if !r.lim.Budget.take(c - g.held) {
		return false
	}
	nb := make([]byte, len(g.buf), c)
	copy(nb, g.buf)
	g.buf = nb
	g.held = c
	return true
}

// free returns g's buffer to the budget (g.buf stays valid for a caller
// that owns it now).
func (r *Reassembler) free(g *group) {
	r.lim.Budget.give(g.held)
	g.held = 0
}

// padCount returns the number of trailing '=' in a base64 run (0–2).
func padCount(s []byte) int {
	n := 0
	for i := len(s) - 1; i >= 0 && n < 2 && s[i] == '='; i-- {
		n++
	}
	return n
}
