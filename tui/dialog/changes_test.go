package dialog

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// fakeChanges is a ChangeSource holding ready changesets.
type fakeChanges map[string]ahpwire.ChangesetState

func (f fakeChanges) Changeset(uri string) (ahpwire.ChangesetState, bool, string, bool) {
	st, ok := f[uri]
	return st, ok, "", ok
}
func (fakeChanges) AddViewOpts(*render.ViewOpts) {}
func (fakeChanges) Pin(string, bool) tea.Cmd     { return nil }
func (fakeChanges) Unpin(string) tea.Cmd         { return nil }

// TestChangesDiffLaidOutOncePerContents: the open diff is laid out once
// per (contents, width), not in every View (issue 24 item 8: a 15 MB line
// froze the UI because each frame diffed it again).
func TestChangesDiffLaidOutOncePerContents(t *testing.T) {
	const cs = "ahp-changeset:/c/session"
	side := func(text string) *ahpwire.FileEditSide {
		return &ahpwire.FileEditSide{URI: "file:///w/a.txt", Content: ahpwire.ContentRef{URI: "data:text/plain," + text}}
	}
	src := fakeChanges{}
	o, _ := NewChanges(src, nil, render.New(render.DarkStyles()), keymap.Default().Changes, []ahpwire.Changeset{{Label: "S", URITemplate: cs}})
	src[cs] = ahpwire.ChangesetState{Files: []ahpwire.ChangesetFile{
		{ID: "f", Edit: ahpwire.FileEdit{Before: side("old%0A"), After: side("new%0A")}}}}
	o.diff = &diffPane{row: o.rows()[0]}
	sty := uikit.NewStyles(render.DarkStyles())
	st := &sty
	first := o.View(st, 100, 30)
	laid := o.diff.lines
	if second := o.View(st, 100, 30); second != first || len(laid) == 0 || &o.diff.lines[0] != &laid[0] {
		t.Fatal("the diff was laid out again for an unchanged frame")
	}
	o.View(st, 90, 30)
	if &o.diff.lines[0] == &laid[0] {
		t.Fatal("a new width did not lay the diff out again")
	}
}

// TestChangesSaysWhyEmpty: a changeset the host emptied with an error (the
// state budget dropped its files) shows the host's reason, wrapped, not
// "No changes in this chat yet".
func TestChangesSaysWhyEmpty(t *testing.T) {
	const cs = "ahp-changeset:/c/session"
	src := fakeChanges{cs: {Status: ahpwire.ChangesetError, Files: []ahpwire.ChangesetFile{}, Error: &ahpwire.ErrorInfo{
		ErrorType: "evicted", Message: "This chat's changes were removed to keep the host's saved state within its size budget."}}}
	o, _ := NewChanges(src, nil, render.New(render.DarkStyles()), keymap.Default().Changes, []ahpwire.Changeset{{Label: "Session changes", URITemplate: cs}})
	sty := uikit.NewStyles(render.DarkStyles())
	out := ansi.Strip(o.View(&sty, 60, 20))
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "╭", " ", "╰", " ", "─", " ", "╮", " ", "╯", " ").Replace(out)), " ")
	if strings.Contains(out, "No changes in this chat yet") || !strings.Contains(flat, "within its size budget.") || !strings.Contains(flat, "Session changes: This chat's changes were removed") {
		t.Fatalf("the emptied changeset shows:\n%s", out)
	}
}
