package demo

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// simEdit is the simulated edit of /demo tools: one comment line inserted at
// the top of a file (or a new file when the target could not be read).
type simEdit struct {
	path          string
	before, after string
	create        bool
	diff          string // unified diff
}

// commentFor returns a one-line comment in the file type's syntax.
func commentFor(p, text string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".html", ".xml", ".svg":
		return "<!-- " + text + " -->"
	case ".go", ".mod", ".js", ".ts", ".tsx", ".jsx", ".c", ".h", ".cc", ".cpp", ".java", ".rs", ".swift", ".kt", ".css", ".scss":
		return "// " + text
	case ".sql", ".lua":
		return "-- " + text
	}
	return "# " + text
}

// newSimEdit builds the edit of file p whose current text is before
// (create=true when the file does not exist or could not be read).
func newSimEdit(p, before string, create bool) simEdit {
	line := commentFor(p, "Reviewed by the ahptui demo agent (simulated edit).")
	e := simEdit{path: p, before: before, create: create}
	if create {
		e.before = ""
		e.after = line + "\n"
		e.diff = fmt.Sprintf("--- /dev/null\n+++ b/%s\n@@ -0,0 +1,1 @@\n+%s\n", p, line)
		return e
	}
	e.after = line + "\n" + before
	lines := strings.SplitAfter(before, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	ctx := lines[:min(3, len(lines))]
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", p, p)
	if len(ctx) == 0 {
		fmt.Fprintf(&b, "@@ -0,0 +1,1 @@\n+%s\n", line)
	} else {
		fmt.Fprintf(&b, "@@ -1,%d +1,%d @@\n+%s\n", len(ctx), len(ctx)+1, line)
	}
	for _, l := range ctx {
		b.WriteString(" " + strings.TrimRight(l, "\n") + "\n")
	}
	e.diff = b.String()
	return e
}

// dataURI embeds text as an RFC 2397 data: URI, so a FileEdit side is
// self-contained (no resourceRead needed).
func dataURI(text string) string {
	return "data:text/plain;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(text))
}

// fileURI returns the file: URI of p inside dir (p relative, slash form).
func fileURI(dir, p string) string {
	abs := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(p)))
	if a, err := filepath.Abs(filepath.Join(dir, filepath.FromSlash(p))); err == nil {
		abs = filepath.ToSlash(a)
	}
	if !strings.HasPrefix(abs, "/") {
		abs = "/" + abs
	}
	return (&url.URL{Scheme: "file", Path: abs}).String()
}

// fileEdit returns the AHP FileEdit of e: before/after sides as data: URIs
// on the file's file: URI, with +1/−0 diff stats.
func (e simEdit) fileEdit(dir string) ahpwire.FileEdit {
	uri := fileURI(dir, e.path)
	fe := ahpwire.FileEdit{
		After: &ahpwire.FileEditSide{URI: uri, Content: ahpwire.ContentRef{
			URI: dataURI(e.after), ContentType: "text/plain", SizeHint: ahpwire.Ptr(int64(len(e.after))),
		}},
		Diff: &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr(int64(1)), Removed: ahpwire.Ptr(int64(0))},
	}
	if !e.create {
		fe.Before = &ahpwire.FileEditSide{URI: uri, Content: ahpwire.ContentRef{
			URI: dataURI(e.before), ContentType: "text/plain", SizeHint: ahpwire.Ptr(int64(len(e.before))),
		}}
	}
	return fe
}

// content returns the tool result content of the applied edit: the fileEdit
// block and the unified diff as text.
func (e simEdit) content(dir string) []ahpwire.ToolResultContent {
	fe := e.fileEdit(dir)
	return []ahpwire.ToolResultContent{
		{Type: ahpwire.ContentFileEdit, Before: fe.Before, After: fe.After, Diff: fe.Diff},
		ahpwire.TextContent(e.diff),
	}
}
