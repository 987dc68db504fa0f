package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/reducer"
	"github.com/charmbracelet/x/ansi"
)

// A large edit without host stats: the counts come from the diff, and the
// changes view's FileDiff shows every hunk where the inline preview stops.
func TestFileDiffLargeEditComputesCounts(t *testing.T) {
	var before, after strings.Builder
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&before, "row %d\n", i)
		if i%100 == 0 {
			fmt.Fprintf(&after, "row %d changed\n", i)
		} else {
			fmt.Fprintf(&after, "row %d\n", i)
		}
	}
	e := &reducer.FileEdit{BeforeURI: "file:///big", AfterURI: "file:///big",
		BeforeContent: &reducer.ContentRef{URI: "mem:/b", SizeHint: -1}, AfterContent: &reducer.ContentRef{URI: "mem:/a", SizeHint: -1},
		Added: -1, Removed: -1}
	v := ViewOpts{Resources: map[string]string{"mem:/b": before.String(), "mem:/a": after.String()}}
	if a, r := DiffStats(e, v); a != 200 || r != 200 {
		t.Fatalf("stats +%d −%d", a, r)
	}
	rr := New(DarkStyles())
	full := rr.FileDiff(e, 80, v)
	if !strings.Contains(ansi.Strip(full[0]), "(+200 −200)") {
		t.Fatalf("header %q", ansi.Strip(full[0]))
	}
	hunks := 0
	for _, l := range full {
		if strings.Contains(ansi.Strip(l), "@@ ") {
			hunks++
		}
	}
	if hunks != 200 {
		t.Fatalf("%d hunks in the full diff", hunks)
	}
	if preview := rr.fileEdit(e, 80, v); len(preview) >= len(full) {
		t.Fatalf("preview (%d lines) not shorter than the full diff (%d)", len(preview), len(full))
	}
	if got := EditURIs(e); len(got) != 2 {
		t.Fatalf("uris %v", got)
	}
}
