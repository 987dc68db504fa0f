package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestWrappedListItemsKeepTheirIndent: the continuation lines of a wrapped
// list item (bullet, nested, ordered, wide numbers) start under the item's
// text, not under its marker, and no line exceeds the width.
func TestWrappedListItemsKeepTheirIndent(t *testing.T) {
	md := "Intro.\n\n- a short item\n- a much longer item that will certainly need to wrap onto the next line at this width, twice even\n  1. nested ordered item that is also long enough to wrap at forty columns\n\n10. ten with long text that wraps around the width of forty\n\nAfter the list, a paragraph long enough to wrap at forty columns stays flush.\n"
	for _, done := range []bool{true, false} {
		var got []string
		for _, l := range New(DarkStyles()).Markdown("m", md, done, 40) {
			if w := ansi.StringWidth(l); w > 40 {
				t.Fatalf("line %q is %d wide", ansi.Strip(l), w)
			}
			got = append(got, strings.TrimRight(ansi.Strip(l), " "))
		}
		text := strings.Join(got, "\n")
		for _, want := range []string{
			"  • a much longer item that will\n    certainly need to wrap onto the next\n    line at this width, twice even",
			"    1. nested ordered item that is also\n       long enough to wrap at forty\n       columns",
			"  10. ten with long text that wraps\n      around the width of forty",
			"  After the list, a paragraph long\n  enough to wrap",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("done=%v: missing\n%s\nin\n%s", done, want, text)
			}
		}
	}
}
