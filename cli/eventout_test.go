package cli

import (
	"strings"
	"testing"
)

// Plain exec output: the answer's parts (the text before a tool call and
// the text after it) are paragraphs, not run together; deltas of one part
// are.
func TestPlainTextSeparatesParts(t *testing.T) {
	var b strings.Builder
	e := newEventWriter(&b, false)
	e.text("m1", "I will run `ls`.")
	e.text("m1", " Now.")
	e.text("m2", "It ran.\n")
	e.text("m3", "Done.")
	e.end("complete", 1, nil, "")
	if want := "I will run `ls`. Now.\n\nIt ran.\n\nDone.\n"; b.String() != want {
		t.Fatalf("got %q, want %q", b.String(), want)
	}
}
