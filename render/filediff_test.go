package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
)

func sideEdit(before, after string) (*ahpwire.FileEdit, ViewOpts) {
	e := &ahpwire.FileEdit{
		Before: &ahpwire.FileEditSide{URI: "file:///big", Content: ahpwire.ContentRef{URI: "mem:/b"}},
		After:  &ahpwire.FileEditSide{URI: "file:///big", Content: ahpwire.ContentRef{URI: "mem:/a"}}}
	return e, ViewOpts{Resources: map[string]string{"mem:/b": before, "mem:/a": after}}
}

// A large edit without host stats: the counts come from the diff, and the
// changes view's FileDiff shows every hunk.
func TestFileDiffLargeEditComputesCounts(t *testing.T) {
	var before, after strings.Builder
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&before, "row %d\n", i)
		if i%1000 == 0 {
			fmt.Fprintf(&after, "row %d changed\n", i)
		} else {
			fmt.Fprintf(&after, "row %d\n", i)
		}
	}
	e, v := sideEdit(before.String(), after.String())
	if a, r := DiffStats(e, v); a != 20 || r != 20 {
		t.Fatalf("stats +%d −%d", a, r)
	}
	full := New(DarkStyles()).FileDiff(e, 80, v)
	if !strings.Contains(ansi.Strip(full[0]), "(+20 −20)") {
		t.Fatalf("header %q", ansi.Strip(full[0]))
	}
	hunks := 0
	for _, l := range full {
		if strings.Contains(ansi.Strip(l), "@@ ") {
			hunks++
		}
	}
	if hunks != 20 {
		t.Fatalf("%d hunks in the full diff", hunks)
	}
	if got := EditURIs(e); len(got) != 2 {
		t.Fatalf("uris %v", got)
	}
}

// The inline preview stops after a few screens; FileDiff does not.
func TestFileDiffShowsWhatThePreviewCuts(t *testing.T) {
	var after strings.Builder
	for i := 0; i < 2*maxHeadLines+200; i++ {
		fmt.Fprintf(&after, "new line %d\n", i)
	}
	e, v := sideEdit("", after.String())
	r := New(DarkStyles())
	full, preview := r.FileDiff(e, 80, v), r.fileEdit(e, 80, v)
	if len(full) < 2*maxHeadLines+200 || len(preview) >= len(full) || !strings.Contains(ansi.Strip(preview[len(preview)-1]), "more diff") {
		t.Fatalf("full %d lines, preview %d lines ending %q", len(full), len(preview), ansi.Strip(preview[len(preview)-1]))
	}
}

// A changed file of 10⁶ hunks is shown at once (the UI froze 12.9 s laying
// its diff out): past the input bound the view says the diff is too large
// and the counts are those of a whole replacement. A file under the bound
// with a hunk every 8 lines still lays out within the 1.2 s ceiling.
// hunky is a file pair with one changed line in every 8 (hunks hunks).
func hunky(hunks int) (string, string) {
	var a, b strings.Builder
	for i := 0; i < hunks; i++ {
		a.WriteString("s\ns\ns\ns\ns\ns\ns\no\n")
		b.WriteString("s\ns\ns\ns\ns\ns\ns\nn\n")
	}
	return a.String(), b.String()
}

// A changed file of 10⁶ hunks is counted but not laid out (the view says
// it is too large); one at the input bound is laid out whole. Their cost is
// BenchmarkFileDiffBound's (a timed test fails on a loaded machine).
func TestFileDiffMillionHunksBounded(t *testing.T) {
	r := New(DarkStyles())
	for _, c := range []struct {
		hunks  int
		tooBig bool
	}{{1_000_000, true}, {maxDiffInputLines / 16, false}} {
		before, after := hunky(c.hunks)
		e, v := sideEdit(before, after)
		a, d := DiffStats(e, v)
		lines := r.FileDiff(e, 100, v)
		big := strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "too large to show")
		if big != c.tooBig || a < int64(c.hunks) || d < int64(c.hunks) {
			t.Fatalf("%d hunks: too large %v, +%d −%d", c.hunks, big, a, d)
		}
		if !c.tooBig && len(lines) < 2*c.hunks {
			t.Fatalf("%d hunks laid out in %d rows", c.hunks, len(lines))
		}
	}
}

// BenchmarkFileDiffBound times the changes view's diff of a 10⁶-hunk file
// (refused) and of one at the input bound (laid out): the UI freezes once
// for that long, and the ceiling is 1.2 s.
func BenchmarkFileDiffBound(b *testing.B) {
	r := New(DarkStyles())
	for _, hunks := range []int{1_000_000, maxDiffInputLines / 16} {
		before, after := hunky(hunks)
		e, v := sideEdit(before, after)
		b.Run(fmt.Sprintf("hunks=%d", hunks), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				DiffStats(e, v)
				r.FileDiff(e, 100, v)
			}
		})
	}
}
