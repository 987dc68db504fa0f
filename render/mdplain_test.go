package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// hugeMarkdown is a heading, enough paragraphs to pass PlainAfter, then a
// paragraph with markdown syntax, a long unbroken line and a control byte.
func hugeMarkdown() string {
	var b strings.Builder
	b.WriteString("# Early heading\n\nSome **early** text.\n\n")
	for b.Len() < PlainAfter+1000 {
		b.WriteString("filler line of a long paragraph that keeps going and going\nsecond line\n\n")
	}
	b.WriteString("Late **bold** text\n" + strings.Repeat("x", 300) + "\nbell\x07here\n\nlast paragraph")
	return b.String()
}

func TestPlainLayoutPastThreshold(t *testing.T) {
	const width = 60
	doc := hugeMarkdown()
	lines := New(DarkStyles()).Markdown("m", doc, true, width)
	text := stripLines(lines)
	// Before the threshold: glamour (the heading mark and ** are gone).
	if strings.Contains(text, "# Early heading") || strings.Contains(text, "**early**") || !strings.Contains(text, "Early heading") {
		t.Errorf("the first blocks are not rendered as markdown:\n%.300s", text)
	}
	// Past it: the source as plain text, wrapped, sanitised.
	if !strings.Contains(text, "  Late **bold** text\n") {
		t.Errorf("a late block is not laid out as plain text")
	}
	if strings.Contains(strings.Join(lines, ""), "\x07") {
		t.Errorf("a control byte reached the output")
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > width {
			t.Fatalf("line %d is %d columns wide (> %d)", i, w, width)
		}
	}
	if !strings.HasSuffix(strings.TrimRight(text, "\n"), "  last paragraph") {
		t.Errorf("the text does not end with its last paragraph:\n%s", text[len(text)-200:])
	}
	// Streaming it gives the same result as rendering it whole.
	streamed := streamMarkdown(New(DarkStyles()), "m", doc, 64<<10, 1, width)
	if strings.Join(streamed, "\n") != strings.Join(lines, "\n") {
		t.Errorf("streamed render differs from whole render")
	}
}

// BenchmarkHugeMarkdown renders a finished 32 MiB text (what /demo big
// 32000000 ends with) from a cold renderer.
func BenchmarkHugeMarkdown(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 32<<20 {
		for range 20 {
			sb.WriteString("0001234 the quick brown fox jumps over the lazy dog, every byte counted here\n")
		}
		sb.WriteString("\n")
	}
	doc := sb.String()
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if ls := New(DarkStyles()).Markdown("m", doc, true, 118); len(ls) < 400000 {
			b.Fatalf("%d lines", len(ls))
		}
	}
}

// TestPlainLayoutResize checks that the pages of a text resized equal a
// fresh layout at every width, narrower and wider.
func TestPlainLayoutResize(t *testing.T) {
	doc := hugeMarkdown()
	r := New(DarkStyles())
	for _, w := range []int{120, 100, 140, 50, 120, 30} {
		got := r.Markdown("m", doc, true, w)
		want := New(DarkStyles()).Markdown("m", doc, true, w)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("width %d: the resized layout differs from a fresh one", w)
		}
	}
}
