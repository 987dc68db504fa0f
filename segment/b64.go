package segment

import (
	"encoding/base64"
	"encoding/binary"
)

// b64Tables holds, for each of the four positions in a base64 quantum, the
// 6-bit value of every input byte already moved to its bit position in the
// three output bytes as a little-endian uint32 (byte 0 in bits 0–7); bytes
// outside the standard alphabet map to b64Bad.
var b64Tables = func() (t [4][256]uint32) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for p := range t {
		for c := range t[p] {
			t[p][c] = b64Bad
		}
		for i, c := range []byte(alphabet) {
			v := uint32(i)
			switch p {
			case 0:
				t[p][c] = v << 2
			case 1:
				t[p][c] = v>>4 | (v&0xF)<<12
			case 2:
				t[p][c] = (v>>2)<<8 | (v&3)<<22
			case 3:
				t[p][c] = v << 16
			}
		}
	}
	return t
}()

// b64Bad marks an invalid character in b64Tables.
const b64Bad = 1 << 31

// b64Decode decodes standard base64 src into dst exactly like
// base64.StdEncoding.Decode (same result, same success/failure), but faster:
// the bulk is decoded 32 (then 16) characters at a time from 64-bit loads
// through four pre-shifted tables (no per-character shifts); padding, line breaks
// and errors are left to the standard decoder for the final part. dst must
// have room for base64.StdEncoding.DecodedLen(len(src)) bytes.
func b64Decode(dst, src []byte) (int, error) {
	t0, t1, t2, t3 := &b64Tables[0], &b64Tables[1], &b64Tables[2], &b64Tables[3]
	// Keep the final 4 characters (which may hold padding) for the standard
	// decoder, and 2 bytes of slack in dst for the 8-byte stores. The bulk
	// goes 32 characters per step (four independent loads, three stores).
	n, si := 0, 0
	for si+36 <= len(src) && n+26 <= len(dst) {
		s, d := src[si:si+32], dst[n:n+26]
		x := binary.LittleEndian.Uint64(s[0:])
		y := binary.LittleEndian.Uint64(s[8:])
		z := binary.LittleEndian.Uint64(s[16:])
		w := binary.LittleEndian.Uint64(s[24:])
		a := t0[byte(x)] | t1[byte(x>>8)] | t2[byte(x>>16)] | t3[byte(x>>24)]
		b := t0[byte(x>>32)] | t1[byte(x>>40)] | t2[byte(x>>48)] | t3[byte(x>>56)]
		c := t0[byte(y)] | t1[byte(y>>8)] | t2[byte(y>>16)] | t3[byte(y>>24)]
		e := t0[byte(y>>32)] | t1[byte(y>>40)] | t2[byte(y>>48)] | t3[byte(y>>56)]
		f := t0[byte(z)] | t1[byte(z>>8)] | t2[byte(z>>16)] | t3[byte(z>>24)]
		g := t0[byte(z>>32)] | t1[byte(z>>40)] | t2[byte(z>>48)] | t3[byte(z>>56)]
		h := t0[byte(w)] | t1[byte(w>>8)] | t2[byte(w>>16)] | t3[byte(w>>24)]
		k := t0[byte(w>>32)] | t1[byte(w>>40)] | t2[byte(w>>48)] | t3[byte(w>>56)]
		if (a|b|c|e|f|g|h|k)&b64Bad != 0 {
			break // the 16-character loop and the standard decoder find it
		}
		// Eight 3-byte groups (24 bits each) packed into 24 bytes.
		binary.LittleEndian.PutUint64(d[0:], uint64(a)|uint64(b)<<24|uint64(c)<<48)
		binary.LittleEndian.PutUint64(d[8:], uint64(c)>>16|uint64(e)<<8|uint64(f)<<32|uint64(g)<<56)
		binary.LittleEndian.PutUint64(d[16:], uint64(g)>>8|uint64(h)<<16|uint64(k)<<40)
		si += 32
		n += 24
	}
	out, in := dst[n:], src[si:]
	for len(in) >= 20 && len(out) >= 14 {
		x := binary.LittleEndian.Uint64(in)
		y := binary.LittleEndian.Uint64(in[8:])
		a := t0[byte(x)] | t1[byte(x>>8)] | t2[byte(x>>16)] | t3[byte(x>>24)]
		b := t0[byte(x>>32)] | t1[byte(x>>40)] | t2[byte(x>>48)] | t3[byte(x>>56)]
		c := t0[byte(y)] | t1[byte(y>>8)] | t2[byte(y>>16)] | t3[byte(y>>24)]
		d := t0[byte(y>>32)] | t1[byte(y>>40)] | t2[byte(y>>48)] | t3[byte(y>>56)]
		if (a|b|c|d)&b64Bad != 0 {
			break
		}
		binary.LittleEndian.PutUint64(out, uint64(a)|uint64(b)<<24)
		binary.LittleEndian.PutUint64(out[6:], uint64(c)|uint64(d)<<24)
		in = in[16:]
		out = out[12:]
	}
	n = len(dst) - len(out)
	m, err := base64.StdEncoding.Decode(out, in)
	return n + m, err
}

// b64Pairs maps 12 bits to their two base64 characters (first character in
// the low byte).
var b64Pairs = func() (t [4096]uint16) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for v := range t {
		t[v] = uint16(alphabet[v>>6]) | uint16(alphabet[v&63])<<8
	}
	return t
}()

// b64Encode encodes src into dst exactly like base64.StdEncoding.Encode,
// about twice as fast: 6 input bytes become 8 characters through four
// 12-bit table lookups and one 64-bit store. dst must hold
// base64.StdEncoding.EncodedLen(len(src)) bytes.
func b64Encode(dst, src []byte) {
	t := &b64Pairs
	n, si := 0, 0
	for len(src)-si >= 8 && len(dst)-n >= 8 {
		x := binary.BigEndian.Uint64(src[si:])
		v := uint64(t[(x>>52)&0xfff]) |
			uint64(t[(x>>40)&0xfff])<<16 |
			uint64(t[(x>>28)&0xfff])<<32 |
			uint64(t[(x>>16)&0xfff])<<48
		binary.LittleEndian.PutUint64(dst[n:], v)
		n += 8
		si += 6
	}
	base64.StdEncoding.Encode(dst[n:], src[si:])
}

// b64AppendEncode appends the base64 encoding of src to dst.
func b64AppendEncode(dst, src []byte) []byte {
	n := base64.StdEncoding.EncodedLen(len(src))
	l := len(dst)
	if cap(dst)-l < n {
		nd := make([]byte, l, l+n)
		copy(nd, dst)
		dst = nd
	}
	dst = dst[:l+n]
	b64Encode(dst[l:], src)
	return dst
}
