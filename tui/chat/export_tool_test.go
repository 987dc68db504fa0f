package chat

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestExportToolOutputByReference: a long tool output the host keeps as
// resource pages is exported as its text up to the export's clip (read
// through the reader, stopping once the clip is reached), with a note of
// its whole size; without a reader, as links; text before and after the
// run keeps its place.
func TestExportToolOutputByReference(t *testing.T) {
	size := int64(maxExportToolText)
	page := func(n string) ahpwire.ToolResultContent {
		return ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: "ahptui-part:/c/t/0/out1/" + n, SizeHint: &size}
	}
	tc := &ahpwire.ToolCallState{ToolName: "grep", Status: "completed", Content: []ahpwire.ToolResultContent{
		{Type: ahpwire.ContentText, Text: "before the output"},
		page("0"), page("1"), page("2"),
		{Type: ahpwire.ContentText, Text: "after the output"},
	}}
	var reads []string
	read := func(uri string) (string, bool) {
		reads = append(reads, uri)
		return strings.Repeat("PAGE"+uri[len(uri)-1:]+" \x1b[31mred\n", int(size)/14+1), true
	}
	md := toolMarkdown(tc, read)
	if len(reads) != 1 {
		t.Fatalf("read %d pages for a %d-byte clip: %v", len(reads), maxExportToolText, reads)
	}
	for _, want := range []string{"PAGE0 ", "(output of 12000 bytes in 3 pages; the rest is not exported)"} {
		if !strings.Contains(md, want) {
			t.Fatalf("export lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "\x1b") || strings.Contains(md, "PAGE1") {
		t.Fatalf("escape or a page past the clip in the export:\n%s", md)
	}
	if b, a, o := strings.Index(md, "before the output"), strings.Index(md, "after the output"), strings.Index(md, "PAGE0"); !(b < o && o < a) {
		t.Fatalf("output out of place (before %d, pages %d, after %d):\n%s", b, o, a, md)
	}

	links := toolMarkdown(tc, nil)
	for _, n := range []string{"0", "1", "2"} {
		if !strings.Contains(links, "→ ahptui-part:/c/t/0/out1/"+n) {
			t.Fatalf("no link to page %s without a reader:\n%s", n, links)
		}
	}
}
