package render

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"plain":              {"hello\nworld", "hello\nworld"},
		"csi sgr":            {"a\x1b[31mred\x1b[0m b", "ared b"},
		"csi clear":          {"x\x1b[2J\x1b[Hy", "xy"},
		"csi private":        {"x\x1b[?1049hy", "xy"},
		"osc bel":            {"a\x1b]0;title\x07b", "ab"},
		"osc st":             {"a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"},
		"osc unterminated":   {"a\x1b]52;c;aGVsbG8=", "a"},
		"dcs":                {"a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		"apc pm sos":         {"a\x1b_apc\x1b\\b\x1b^pm\x07c\x1bXsos\x1b\\d", "abcd"},
		"two byte esc":       {"a\x1b7b\x1b8c\x1bcd", "abcd"},
		"nF esc":             {"a\x1b(Bb\x1b#8c", "abc"},
		"esc at end":         {"abc\x1b", "abc"},
		"esc then control":   {"a\x1b\nb", "a\nb"},
		"c1 csi as rune":     {"a\u009b31mb", "ab"},
		"c1 osc as rune":     {"a\u009d0;t\u009cb", "ab"},
		"c1 dcs as rune":     {"a\u0090x\u009cb", "ab"},
		"other c1 rune":      {"a\u0085b", "a\ufffdb"},
		"raw 8-bit csi byte": {"a\x9b31mb", "a\ufffd31mb"},
		"invalid utf8":       {"a\xff\xfeb", "a\ufffd\ufffdb"},
		"crlf":               {"a\r\nb", "a\nb"},
		"lone cr":            {"50%\r100%", "50%␍100%"},
		"bell and nul":       {"a\x07b\x00c", "a␇b␀c"},
		"del":                {"a\x7fb", "a␡b"},
		"tab stops":          {"a\tb\n\tc\nabcd\te", "a   b\n    c\nabcd    e"},
		"tab after wide":     {"世\tx", "世  x"},
		"osc aborted by esc": {"a\x1b]0;t\x1b[31mb", "ab"},
		"osc ended by can":   {"a\x1b]0;t\x18b", "ab"},
		"unicode kept":       {"héllo — 世界 🎉", "héllo — 世界 🎉"},
		"bidi override":      {"rm -rf /\u202e#txt.exe", "rm -rf /[U+202E]#txt.exe"},
		"bidi isolates":      {"a\u2066b\u2069c\u200fd", "a[U+2066]b[U+2069]c[U+200F]d"},
		"line separators":    {"a\u2028b\u2029c", "a\nb\nc"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSanitizeTabsWidth(t *testing.T) {
	if got := SanitizeTabs("a\tb", TerminalTabWidth); got != "a       b" {
		t.Errorf("tab 8: %q", got)
	}
	if got := SanitizeTabs("a\tb", 0); got != "a b" {
		t.Errorf("tab stop < 1 should act as 1 (a tab at column 1 advances 1): %q", got)
	}
}

// checkSafe reports why s is not safe to print, or "".
func checkSafe(s string) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	if strings.IndexByte(s, 0x1b) >= 0 {
		return "raw ESC"
	}
	for _, r := range s {
		switch {
		case r == '\n':
		case r < 0x20 || r == 0x7f:
			return "C0 control or DEL"
		case r >= 0x80 && r <= 0x9f:
			return "C1 control"
		case isBidiControl(r) || r == 0x2028 || r == 0x2029:
			return "bidi control or line separator"
		}
	}
	return ""
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[31mred", "\x1b]0;title\x07", "\x1bP+q\x1b\\", "\u009b2J", "\x9b2J",
		"\t\ttab", "a\r\nb\rc", "\xff\xfe", "\x1b", "\x1b\x1b[", "\u0085\u009c", "世\t界",
		"\u202eabc\u202c", "x\u2066y\u2069\u2028z",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		if why := checkSafe(out); why != "" {
			t.Fatalf("Sanitize(%q) = %q: %s survived", s, out, why)
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, out, again)
		}
		if strings.Contains(out, "\t") {
			t.Fatalf("tab survived in %q", out)
		}
		// The markdown path must be just as safe after glamour.
		lines := filterLine(out)
		if strings.IndexByte(lines, 0x1b) >= 0 {
			t.Fatalf("filterLine kept an escape from sanitised text %q", out)
		}
	})
}

// FuzzRenderMarkdown renders arbitrary (hostile) markdown, finished and as
// a streaming prefix, and checks that only SGR and OSC 8 sequences reach
// the output and that lines fit the width.
func FuzzRenderMarkdown(f *testing.F) {
	for _, s := range []string{
		"# t\n\nhello *x*", "&#27;[2J", "[a](http://x&#x1b;]0;t&#7;)", "```\n\x1b[31m\n```", "- a\n\n  b\n\n1. c",
		"| a |\n|---|\n| &#155;2J |", "`&#27;`", "<script>\x1b]0;x\x07</script>", "&#x9d;0;t&#x9c;",
	} {
		f.Add(s, uint8(40))
	}
	f.Fuzz(func(t *testing.T, s string, w uint8) {
		width := MinWidth + int(w)%100
		r := New(DarkStyles())
		for _, done := range []bool{false, true} {
			lines := r.Markdown("f", s, done, width)
			checkRenderedInvariants(t, Rendered{Lines: lines}, max(width, minMarkdownWidth))
		}
	})
}
