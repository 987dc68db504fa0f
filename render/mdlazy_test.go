package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lazyMarkdown is about n bytes of varied markdown blocks (headings,
// paragraphs, lists, code fences, tables) below PlainAfter.
func lazyMarkdown(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "## Section %d\n\n", i)
		case 1:
			fmt.Fprintf(&b, "A paragraph %d with *emphasis*, `code` and enough words to wrap at a narrow width, café 日本語.\n\n", i)
		case 2:
			fmt.Fprintf(&b, "- item %d\n- item two\n  - nested\n\n", i)
		case 3:
			fmt.Fprintf(&b, "```go\nfunc f%d() int {\n\treturn %d\n}\n```\n\n", i, i)
		default:
			fmt.Fprintf(&b, "| a | b |\n|---|---|\n| %d | x |\n\n", i)
		}
	}
	return b.String()
}

// sectionLines lays every section out, as the transcript would by
// scrolling through all of them.
func sectionLines(secs []Section) []string {
	var out []string
	for _, s := range secs {
		if s.Page != nil {
			out = append(out, s.Page.Lines()...)
		} else {
			out = append(out, s.Lines...)
		}
	}
	return out
}

// plainLines is lines without their SGR sequences.
func plainLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = sgrRe.ReplaceAllString(l, "")
	}
	return out
}

// A long text's completed blocks come as group pages that, laid out, equal
// the eager layout, at several widths, streamed and finished; Size covers
// the source and Contains finds text in it.
func TestLazyGroupsLayOutLikeWhole(t *testing.T) {
	// 48 KB makes 12 group pages past lazyHeadBytes (more than the eight
	// checked below), every block kind inside them; 100 KB cost twice the
	// glamour renders (57 s under -race) for the same rules.
	doc := lazyMarkdown(48 << 10)
	for _, width := range []int{120, 60} {
		// The eager reference renders each width once: the finished text
		// (its own id, so its layout starts afresh) takes the open text's
		// blocks from the block cache.
		eager := New(DarkStyles())
		for _, done := range []bool{false, true} {
			text := doc
			if !done {
				text = doc[:len(doc)-7] // an open block at the end
			}
			lazy := New(DarkStyles())
			secs := lazy.textSections("m", text, done, width, false)
			want := eager.Markdown(fmt.Sprintf("m%v", done), text, done, width)
			pages, size := 0, 0
			for _, s := range secs {
				if s.Page != nil && s.Page.st != nil {
					pages++
					size += s.Page.Size()
				}
			}
			if pages < 8 {
				t.Fatalf("width %d done %v: %d group pages for %d bytes", width, done, pages, len(text))
			}
			if size < len(text)*9/10 {
				t.Fatalf("group pages cover %d of %d bytes", size, len(text))
			}
			// Compared without colours: chroma gives each lexer rule a
			// 250 ms wall-clock match timeout (chroma.go), so on a machine
			// loaded enough to stall the test that long (under -race at
			// load 14 it did) one of the two renders may highlight a code
			// block differently; the layout (lines, wrapping, text) is
			// what this test is about, and it does not depend on that.
			if got := sectionLines(secs); !slices.Equal(plainLines(got), plainLines(want)) {
				t.Fatalf("width %d done %v: lazy layout differs (%d vs %d lines)", width, done, len(got), len(want))
			}
			if !secs[3].Page.Contains("SECTION") || secs[3].Page.Contains("no such words") {
				t.Fatal("Contains on a group page")
			}
		}
	}
}

// Laying out only the last section renders only its blocks: a long text
// streamed to the bottom of the window costs the blocks shown, not all.
func TestLazyGroupsRenderOnlyWhatIsShown(t *testing.T) {
	// 100 KB is about 25 groups: the last group is still well under a
	// tenth of the whole text's blocks (200 KB made the same point at twice
	// the cost).
	doc := lazyMarkdown(100 << 10)
	r := New(DarkStyles())
	secs := r.textSections("m", doc, true, 100, false)
	_ = secs[len(secs)-1].Page.Lines()
	eager := New(DarkStyles())
	_ = eager.Markdown("m", doc, true, 100)
	if r.md.hlRenders*10 > eager.md.hlRenders {
		t.Fatalf("the last group rendered %d blocks; the whole text has %d", r.md.hlRenders, eager.md.hlRenders)
	}
}
