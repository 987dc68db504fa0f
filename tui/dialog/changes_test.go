package dialog

import (
	"testing"

	tea "charm.land/bubbletea/v2"

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
