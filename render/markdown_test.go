package render

import (
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"
)

func stripLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// streamMarkdown feeds text to r in deltas of n bytes, rendering every
// `every` deltas, then finishes it.
func streamMarkdown(r *Renderer, id, text string, n, every, width int) []string {
	k := 0
	for end := n; end < len(text); end += n {
		k++
		if k%every == 0 {
			r.Markdown(id, text[:end], false, width)
		}
	}
	return r.Markdown(id, text, true, width)
}

func TestStreamEqualsWhole(t *testing.T) {
	for _, tc := range []struct{ size, width, delta, every int }{
		{3_000, 80, 1, 1}, {20_000, 40, 7, 3}, {20_000, 80, 20, 5}, {20_000, 120, 13, 1},
	} {
		doc, width, delta := genMarkdown(tc.size), tc.width, tc.delta
		{
			streamed := streamMarkdown(New(DarkStyles()), "m", doc, delta, tc.every, width)
			whole := New(DarkStyles()).Markdown("m", doc, true, width)
			if strings.Join(streamed, "\n") != strings.Join(whole, "\n") {
				t.Fatalf("width %d delta %d: streamed render differs from whole render", width, delta)
			}
			if stripLines(streamed) != stripLines(whole) {
				t.Fatalf("width %d delta %d: stripped text differs", width, delta)
			}
		}
	}
}

// TestSplitMatchesGlamourWhole checks that block splitting is faithful: the
// text equals glamour's own whole-document render once styles, trailing
// padding and blank lines are removed.
func TestSplitMatchesGlamourWhole(t *testing.T) {
	doc := genMarkdown(20_000)
	st := DarkStyles()
	for _, width := range []int{40, 80, 120} {
		ours := New(st).Markdown("m", doc, true, width)
		tr, err := glamour.NewTermRenderer(glamour.WithStyles(st.Markdown), glamour.WithWordWrap(width),
			glamour.WithChromaFormatter(chromaFormatter))
		if err != nil {
			t.Fatal(err)
		}
		out, err := tr.Render(prepareMarkdown(Sanitize(doc), chromaKnows))
		if err != nil {
			t.Fatal(err)
		}
		a, b := nonBlank(stripLines(ours)), nonBlank(stripLines(strings.Split(out, "\n")))
		if a != b {
			t.Fatalf("width %d: split render differs from whole glamour render:\n%s", width, firstDiff(a, b))
		}
	}
}

func nonBlank(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + itoa(i) + ":\n ours: " + al[i] + "\nwhole: " + bl[i]
		}
	}
	return "lengths differ: " + itoa(len(al)) + " vs " + itoa(len(bl))
}
