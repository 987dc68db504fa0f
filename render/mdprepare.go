package render

import (
	"strconv"
	"strings"

	"github.com/alecthomas/chroma/v2/lexers"
)

// prepareMarkdown rewrites sanitised markdown before it reaches glamour:
//
//   - a fence with no language, or one chroma does not know, becomes
//     ```text, because chroma would otherwise try every lexer (~6 ms per
//     fence, TECH.md §2d);
//   - outside fenced code, numeric character references that decode to a
//     control character (&#27; &#x9b; …) get their '&' escaped, since
//     goldmark would decode them into a raw ESC or C1 control after
//     sanitising.
func prepareMarkdown(src string, known func(string) bool) string {
	if !strings.Contains(src, "```") && !strings.Contains(src, "~~~") && !strings.Contains(src, "&#") {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + 16)
	inFence := false
	var fc byte
	var fl int
	for rest := src; rest != ""; {
		l := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			l = rest[:i+1]
		}
		rest = rest[len(l):]
		switch {
		case inFence:
			if closesFence(l, fc, fl) {
				inFence = false
			}
			b.WriteString(l)
		default:
			if c, n, ok := fenceOpen(l); ok {
				inFence, fc, fl = true, c, n
				b.WriteString(rewriteFence(l, n, known))
				continue
			}
			b.WriteString(escapeControlRefs(l))
		}
	}
	return b.String()
}

// rewriteFence replaces the info string of a fence opener by "text" when
// its language is missing or unknown.
func rewriteFence(l string, n int, known func(string) bool) string {
	ws := leadingWS(l)
	info := strings.TrimSpace(l[ws+n:])
	lang := info
	if i := strings.IndexAny(info, " \t{"); i >= 0 {
		lang = info[:i]
	}
	if lang != "" && known(lang) {
		return l
	}
	nl := ""
	if strings.HasSuffix(l, "\n") {
		nl = "\n"
	}
	return l[:ws+n] + "text" + nl
}

// escapeControlRefs escapes numeric character references to control code
// points (C0, DEL, C1) and to invalid code points.
func escapeControlRefs(l string) string {
	if !strings.Contains(l, "&#") {
		return l
	}
	var b strings.Builder
	for {
		i := strings.Index(l, "&#")
		if i < 0 {
			b.WriteString(l)
			return b.String()
		}
		b.WriteString(l[:i])
		j := i + 2
		base := 10
		if j < len(l) && (l[j] == 'x' || l[j] == 'X') {
			base = 16
			j++
		}
		k := j
		for k < len(l) && k-j < 8 && isDigitIn(l[k], base) {
			k++
		}
		if k > j && k < len(l) && l[k] == ';' {
			v, err := strconv.ParseUint(l[j:k], base, 32)
			if err != nil || v < 0x20 || (v >= 0x7f && v <= 0x9f) || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) {
				b.WriteString("&amp;#")
				l = l[i+2:]
				continue
			}
		}
		b.WriteString("&#")
		l = l[i+2:]
	}
}

func isDigitIn(c byte, base int) bool {
	if c >= '0' && c <= '9' {
		return true
	}
	return base == 16 && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
}

// chromaKnows reports whether chroma has a lexer for a fence language.
func chromaKnows(lang string) bool { return lexers.Get(lang) != nil }
