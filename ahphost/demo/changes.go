package demo

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// demoRoot is the (virtual) project directory of /demo edit.
const demoRoot = "file:///home/demo/project/"

// LargeEditLines is the size of the large file /demo edit modifies.
const LargeEditLines = 20000

// changedFile is one file of /demo edit with its contents before and after
// (empty for created/deleted) and the exact line counts of the change.
type changedFile struct {
	path          string
	contentType   string
	before, after string
	create, del   bool
	added, remov  int64
}

// lineEdit builds a modified file: lines of before, with replace[i]
// replacing line i and insert[i] inserted after line i (0-based).
func lineEdit(before []string, replace, insert map[int]string) (after []string, added, removed int64) {
	for i, l := range before {
		if r, ok := replace[i]; ok {
			after = append(after, r)
			added++
			removed++
		} else {
			after = append(after, l)
		}
		if ins, ok := insert[i]; ok {
			after = append(after, ins)
			added++
		}
	}
	return after, added, removed
}

func joinLines(ls []string) string { return strings.Join(ls, "\n") + "\n" }

// editFiles returns the deterministic changes of /demo edit: two modified
// source files, one created, one deleted and one large modified data file.
func editFiles() []changedFile {
	var mainGo []string
	mainGo = append(mainGo, "package main", "", "import (", "\t\"fmt\"", "\t\"os\"", ")", "")
	for i := 1; i <= 12; i++ {
		mainGo = append(mainGo, fmt.Sprintf("// step%d performs step %d of the pipeline.", i, i),
			fmt.Sprintf("func step%d() error {", i), fmt.Sprintf("\treturn check(%d)", i), "}", "")
	}
	mainGo = append(mainGo, "func main() {", "\tif err := run(); err != nil {", "\t\tfmt.Println(err)", "\t\tos.Exit(1)", "\t}", "}")
	mainAfter, ma, mr := lineEdit(mainGo,
		map[int]string{len(mainGo) - 4: "\t\tfmt.Fprintln(os.Stderr, \"error:\", err)", 9: "\treturn check(1) // validated first"},
		map[int]string{6: "// version is set by the release build.\nvar version = \"dev\""})
	ma++ // the inserted entry above holds two lines

	var render []string
	render = append(render, "package render", "")
	for i := 1; i <= 40; i++ {
		render = append(render, fmt.Sprintf("// Line %d of the diff renderer keeps the gutter aligned.", i))
	}
	renderAfter, ra, rr := lineEdit(render,
		map[int]string{5: "// Line 4 of the diff renderer wraps long lines under the gutter.", 30: "// Line 29: counts come from the hunks."}, nil)

	var large []string
	for i := 1; i <= LargeEditLines; i++ {
		large = append(large, fmt.Sprintf("%06d\tsample row %d\tvalue=%d", i, i, (i*7919)%10007))
	}
	repl := map[int]string{}
	for i := 999; i < LargeEditLines; i += 1000 {
		repl[i] = fmt.Sprintf("%06d\tsample row %d\tvalue=UPDATED", i+1, i+1)
	}
	largeAfter, la, lr := lineEdit(large, repl, nil)

	changes := "# Changes\n\n- `step1` validates its input first.\n- Errors go to stderr.\n- The legacy loader is gone.\n"
	var old []string
	old = append(old, "package legacy", "", "// Load is the old loader, replaced by render.Load.")
	for i := 1; i <= 25; i++ {
		old = append(old, fmt.Sprintf("// deprecated field %d", i))
	}
	return []changedFile{
		{path: "cmd/app/main.go", contentType: "text/x-go", before: joinLines(mainGo),
			after: joinLines(mainAfter), added: ma, remov: mr},
		{path: "docs/CHANGES.md", contentType: "text/markdown", after: changes, create: true, added: int64(strings.Count(changes, "\n"))},
		{path: "internal/legacy/old.go", contentType: "text/x-go", before: joinLines(old), del: true, remov: int64(len(old))},
		{path: "internal/render/gutter.go", contentType: "text/x-go", before: joinLines(render), after: joinLines(renderAfter), added: ra, remov: rr},
		{path: "testdata/large.tsv", contentType: "text/plain", before: joinLines(large), after: joinLines(largeAfter), added: la, remov: lr},
	}
}

// fileEdit stores f's sides as resources and returns its AHP FileEdit.
func (r *run) storeEdit(f changedFile) ahpwire.FileEdit {
	ch := r.t.Channels
	uri := demoRoot + f.path
	side := func(which, text string) *ahpwire.FileEditSide {
		cu := ContentURI(r.t.Chat, r.t.TurnID, which+"/"+f.path)
		ch.PutResource(cu, f.contentType, []byte(text))
		return &ahpwire.FileEditSide{URI: uri, Content: ahpwire.ContentRef{
			URI: cu, ContentType: f.contentType, SizeHint: ahpwire.Ptr(int64(len(text)))}}
	}
	fe := ahpwire.FileEdit{Diff: &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr(f.added), Removed: ahpwire.Ptr(f.remov)}}
	if !f.create {
		fe.Before = side("before", f.before)
	}
	if !f.del {
		fe.After = side("after", f.after)
	}
	return fe
}

// edit runs "/demo edit": an apply_patch tool call whose result holds one
// fileEdit per file (content served by resourceRead), and a reviewable
// session changeset listing the same files.
func (r *run) edit() error {
	ch := r.t.Channels
	if ch == nil {
		return r.answerOnly(noChannels)
	}
	files := editFiles()
	var paths []string
	for _, f := range files {
		paths = append(paths, f.path)
	}
	spec := toolSpec{
		id: r.toolCallID("apply_patch"), name: "apply_patch", display: "Apply patch",
		intention:  "Edit five files",
		input:      toolInputJSON(kv{"files", strings.Join(paths, ", ")}),
		invocation: fmt.Sprintf("Editing %d files", len(files)),
		pastTense:  fmt.Sprintf("Edited %d files", len(files)),
	}
	if err := r.startRunningTool(spec); err != nil {
		return err
	}
	if err := r.pause(r.opts.Pace * 3); err != nil {
		return err
	}
	var content []ahpwire.ToolResultContent
	var csFiles []ahpwire.ChangesetFile
	for _, f := range files {
		fe := r.storeEdit(f)
		content = append(content, ahpwire.ToolResultContent{Type: ahpwire.ContentFileEdit, Before: fe.Before, After: fe.After, Diff: fe.Diff})
		csFiles = append(csFiles, ahpwire.ChangesetFile{ID: fe.Path(), Edit: fe})
	}
	csURI := ahpwire.ChangesetScheme + "/" + strings.TrimPrefix(strings.TrimPrefix(r.t.Chat, ahpwire.ChatScheme), "/") + "/session"
	ch.Changeset(csURI, ahpwire.ChangesetState{Status: ahpwire.ChangesetReady, Files: csFiles}, true)
	if err := r.emit(&ahpwire.ChatChangesetsChanged{Changesets: []ahpwire.Changeset{{
		Label: "Session changes", URITemplate: csURI, ChangeKind: "session",
		Capabilities: &ahpwire.ChangesetCapabilities{Review: &struct{}{}},
	}}}); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: spec.id, Result: ahpwire.ToolCallResult{
		Success: true, PastTenseMessage: ahpwire.MarkdownText(spec.pastTense), Content: content,
	}}); err != nil {
		return err
	}
	if ah := r.artifactHooks(); ah != nil { // the document it wrote is a session artifact (AHP 1.1: created)
		for _, f := range files {
			if f.create {
				r.registerArtifact(ah, demoArtifact{uri: demoRoot + f.path, label: "Created " + f.path, displayKind: "document",
					relation: RelationCreated, contentType: f.contentType, content: f.after})
			}
		}
	}
	r.commentOnEdit() // review.go
	if err := r.streamMarkdown(editSummary(files)); err != nil {
		return err
	}
	return r.complete()
}

// editSummary is the answer after the edit.
func editSummary(files []changedFile) string {
	var b strings.Builder
	b.WriteString("I changed these files (open the changes view to review them):\n\n")
	for _, f := range files {
		kind := "modified"
		switch {
		case f.create:
			kind = "created"
		case f.del:
			kind = "deleted"
		}
		fmt.Fprintf(&b, "- `%s` — %s, +%d −%d\n", f.path, kind, f.added, f.remov)
	}
	return b.String()
}
