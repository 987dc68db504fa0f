package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitizeLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"two\nlines", "two lines"},
		{"b\x07 \x1b]2;x\x07e\x1b[31mc\u009b31md", "b␇ ecd"},
		{"a\u202eb", "a[U+202E]b"},
		{"tab\tx", "tab x"},
		{strings.Repeat("é", 200), strings.Repeat("é", 19) + "…"},
	}
	for _, c := range cases {
		if got := SanitizeLine(c.in, 20); got != c.want {
			t.Errorf("SanitizeLine(%q, 20) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := SanitizeLine("abc", 0); got != "" {
		t.Errorf("0 columns: %q", got)
	}
}

// TestSanitizeLineHugeInput: a 2 MiB title with controls, bidi overrides
// and a multi-byte rune at every possible cut is capped and safe.
func TestSanitizeLineHugeInput(t *testing.T) {
	for shift := range 4 {
		huge := strings.Repeat("x", shift) + strings.Repeat("日\u202e\x1b[2J\u0085\x07", 2<<20/12)
		got := SanitizeLine(huge, MaxTitleColumns)
		if w := ansi.StringWidth(got); w > MaxTitleColumns {
			t.Fatalf("width %d > %d", w, MaxTitleColumns)
		}
		if len(got) > 4*MaxTitleColumns {
			t.Fatalf("%d bytes", len(got))
		}
		if !utf8.ValidString(got) || strings.ContainsAny(got, "\x1b\x07\u0085\u202e\n") {
			t.Fatalf("unsafe result %q", got)
		}
	}
}

// TestSanitizeLineCutsAtARune: the bounded read never splits a rune.
func TestSanitizeLineCutsAtARune(t *testing.T) {
	for shift := range 4 {
		got := SanitizeLine(strings.Repeat("x", shift)+strings.Repeat("日本", 1<<16), MaxTitleColumns)
		if strings.ContainsRune(got, utf8.RuneError) {
			t.Fatalf("shift %d: a rune was split: %q", shift, got)
		}
	}
}

func BenchmarkSanitizeLineHuge(b *testing.B) {
	huge := strings.Repeat("title ", 2<<20/6)
	for b.Loop() {
		SanitizeLine(huge, MaxTitleColumns)
	}
}

// TestHeadBoundsAndKeepsRunes: Head keeps short text whole, cuts a huge
// one to a bounded prefix that still fills the width, and never splits a
// rune.
func TestHeadBoundsAndKeepsRunes(t *testing.T) {
	if got := Head("short\nline", 10); got != "short\nline" {
		t.Fatalf("short text changed: %q", got)
	}
	huge := strings.Repeat("é", 1<<20)
	got := Head(huge, 40)
	if len(got) > 16*40+64 || !utf8.ValidString(got) || !strings.HasPrefix(huge, got) {
		t.Fatalf("head of %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
	if w := ansi.StringWidth(Sanitize(got)); w < 40 {
		t.Fatalf("head fills %d columns, want at least 40", w)
	}
}
