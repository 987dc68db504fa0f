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
