package dialog

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// ChangesNotes is what the changes view offers beyond its changesets
// (issue 31): a review comment on the selected file (Key opens Comment's
// prompt), the number of open comments per file (Count), one status line
// about the watch of the session's directory (Status: files changed on
// disk since the view opened) and what to release when it closes (Close).
// Any of them may be nil.
type ChangesNotes struct {
	Key     key.Binding
	Comment func(resource string) tea.Cmd
	Count   func(resource string) int
	Status  func() string
	Close   func() tea.Cmd
}

// WithNotes adds comments and the directory watch to the view.
func (o *Changes) WithNotes(n ChangesNotes) *Changes {
	o.notes = n
	return o
}

// fileOf is the file URI of a row (its after side, else its before side).
func fileOf(r changesRow) string {
	e := r.file.Edit
	switch {
	case e.After != nil:
		return e.After.URI
	case e.Before != nil:
		return e.Before.URI
	}
	return r.file.ID
}

// notesMark is the open-comment count shown after a file ("" for none).
func (o *Changes) notesMark(uri string) string {
	if o.notes.Count == nil {
		return ""
	}
	if n := o.notes.Count(uri); n > 0 {
		return fmt.Sprintf("  💬%d", n)
	}
	return ""
}

// withStatus ends the list with the status line (and the comment key's
// hint) when there is one, within avail lines.
func (o *Changes) withStatus(st *uikit.Styles, body []string, avail int) []string {
	line := ""
	if o.notes.Status != nil {
		line = o.notes.Status()
	}
	if o.notes.Comment != nil {
		if line != "" {
			line += " · "
		}
		line += o.notes.Key.Help().Key + " comment on the file"
	}
	if line == "" {
		return body
	}
	if len(body) >= avail {
		body = body[:max(0, avail-1)]
	}
	return append(body, st.Dialog.Muted.Render(render.Sanitize(line)))
}
