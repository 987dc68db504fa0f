package render

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
func TestFileDiffMillionHunksBounded(t *testing.T) {
	hunky := func(hunks int) (string, string) {
		var a, b strings.Builder
		for i := 0; i < hunks; i++ {
			a.WriteString("s\ns\ns\ns\ns\ns\ns\no\n")
			b.WriteString("s\ns\ns\ns\ns\ns\ns\nn\n")
		}
		return a.String(), b.String()
	}
	r := New(DarkStyles())
	for _, c := range []struct {
		hunks   int
		tooBig  bool
		ceiling time.Duration
	}{{1_000_000, true, 1200 * time.Millisecond}, {maxDiffInputLines / 16, false, 1200 * time.Millisecond}} {
		before, after := hunky(c.hunks)
		e, v := sideEdit(before, after)
		unlock := lockThread()
		t0 := threadCPU() // this thread's CPU: the machine is shared
		a, d := DiffStats(e, v)
		lines := r.FileDiff(e, 100, v)
		took := threadCPU() - t0
		unlock()
		big := strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "too large to show")
		t.Logf("%d hunks: +%d −%d, %d rows in %v", c.hunks, a, d, len(lines), took)
		if big != c.tooBig || a < int64(c.hunks) || d < int64(c.hunks) {
			t.Fatalf("%d hunks: too large %v, +%d −%d", c.hunks, big, a, d)
		}
		if took > c.ceiling {
			t.Fatalf("%d hunks took %v (ceiling %v)", c.hunks, took, c.ceiling)
		}
	}
}
