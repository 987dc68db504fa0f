package jsonscan

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Unescape appends the decoded content of a JSON string body s (without the
// quotes, already validated by ScanString) to dst.
func Unescape(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		if s[i] != '\\' { // copy the run up to the next escape at once
			j := bytes.IndexByte(s[i:], '\\')
			if j < 0 {
				return append(dst, s[i:]...)
			}
			dst = append(dst, s[i:i+j]...)
			i += j
		}
		switch e := s[i+1]; e {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := rune(hex4(s[i+2 : i+6]))
			i += 6
			if utf16.IsSurrogate(r) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					r2 := rune(hex4(s[i+2 : i+6]))
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						i += 6
						dst = utf8.AppendRune(dst, d)
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default: // '"', '\\', '/'
			dst = append(dst, e)
		}
		i += 2
	}
	return dst
}

// hex4 decodes four validated hex digits.
func hex4(h []byte) int {
	return hexVal(h[0])<<12 | hexVal(h[1])<<8 | hexVal(h[2])<<4 | hexVal(h[3])
}
