package config

import (
	"strings"
)

// lineOfKey returns the 1-based line where the dotted key path is set (or,
// for a table, where its header is), 0 if it cannot be found. It reads the
// document line by line, as a person would: table headers, then `key =`
// lines, with bare, quoted and dotted keys.
func lineOfKey(doc []byte, path []string) int {
	want := strings.Join(path, "\x00")
	var table []string
	for i, raw := range strings.Split(string(doc), "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "["):
			h := strings.Trim(strings.TrimSpace(cutComment(line)), "[]")
			table = splitKey(h)
			if strings.Join(table, "\x00") == want {
				return i + 1
			}
		default:
			k, _, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			full := append(append([]string(nil), table...), splitKey(k)...)
			if strings.Join(full, "\x00") == want {
				return i + 1
			}
		}
	}
	return 0
}

// cutComment drops a trailing # comment outside quotes.
func cutComment(s string) string {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return s[:i]
		}
	}
	return s
}

// splitKey splits a TOML key on dots outside quotes and unquotes parts.
func splitKey(k string) []string {
	var parts []string
	var cur strings.Builder
	var q byte
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			q = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}
