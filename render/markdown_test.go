package render

import (
	"fmt"
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
// text equals glamour's own whole-document render (with our hanging indent
// for list items applied to it too) once styles, trailing padding and blank
// lines are removed.
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
		a, b := nonBlank(stripLines(ours)), nonBlank(stripLines(hangListItems(cleanRendered(out), width)))
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

// longBlocks returns a long table, a long list and a long paragraph (one
// line), each a single top-level block.
func longBlocks() map[string]string {
	var tb, lb, pb strings.Builder
	tb.WriteString("| name | value | note |\n|---|---|---|\n")
	for i := range 150 {
		fmt.Fprintf(&tb, "| row %d | %d | note %d |\n", i, i*7, i)
	}
	for i := range 100 {
		fmt.Fprintf(&lb, "- list item %d with a few words and `code`\n", i)
	}
	for i := range 300 {
		fmt.Fprintf(&pb, "sentence %d of one very long paragraph. ", i)
	}
	return map[string]string{"table": tb.String(), "list": lb.String(), "para": pb.String()}
}

// TestLongTailSegmented checks that a long open block is rendered in
// bounded pieces while it streams, shows all its content in order, and
// still renders exactly as a whole once finished.
func TestLongTailSegmented(t *testing.T) {
	for name, doc := range longBlocks() {
		t.Run(name, func(t *testing.T) {
			r := New(DarkStyles())
			var last []string
			// Deltas of 111 bytes (was 37: three times the frames, 14 s
			// under -race): still far below segLimit, and coprime with the
			// rows, items and sentences, so segment cuts fall everywhere.
			for end := 111; end < len(doc); end += 111 {
				last = r.Markdown("x", doc[:end], false, 100)
			}
			if limit := 2*segLimit + 200; r.md.maxPlainInput > limit {
				t.Errorf("a frame rendered %d bytes of the open block, want ≤ %d", r.md.maxPlainInput, limit)
			}
			streamed := strings.Join(strings.Fields(ansi.Strip(strings.Join(last, "\n"))), " ") + " "
			pos := 0
			for i := 0; i < 90; i += 7 { // content appears once, in order
				var key string
				switch name {
				case "table":
					key = fmt.Sprintf("row %d ", i)
				case "list":
					key = fmt.Sprintf("list item %d ", i)
				default:
					key = fmt.Sprintf("sentence %d ", i)
				}
				at := strings.Index(streamed[pos:], key)
				if at < 0 {
					t.Fatalf("streamed rendering lacks %q after offset %d", key, pos)
				}
				pos += at
			}
			if name == "table" && strings.Count(streamed, "name") != 1 {
				t.Errorf("table header shown %d times while streaming", strings.Count(streamed, "name"))
			}
			final := r.Markdown("x", doc, true, 100)
			whole := New(DarkStyles()).Markdown("x", doc, true, 100)
			if strings.Join(final, "\n") != strings.Join(whole, "\n") {
				t.Error("finished rendering differs from whole rendering")
			}
		})
	}
}
