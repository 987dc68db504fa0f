package tui

import (
	"fmt"
	"path"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// The changes view's review comments and directory watch (issue 31): m on
// a file writes a comment anchored to it (and to the chat's newest turn);
// files show their open comments; while the view is open the session's
// first working directory is watched (createResourceWatch) and the view
// says what changed on disk, while the contents of changed files are
// fetched anew.

// changesNotes equips the changes view o and starts the watch.
func (m *Model) changesNotes(o *dialog.Changes) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	// The closures run from the overlay's Update, on whatever copy of the
	// root model is current then: they hold only shared state (the side
	// channels, the chat), and a comment goes through a message.
	x, c := m.c.Channels, m.chat
	o.WithNotes(dialog.ChangesNotes{
		Key: m.c.KM.Notes.Comment,
		Comment: func(resource string) tea.Cmd {
			turn := ""
			if ts := c.AHP().Turns; len(ts) > 0 {
				turn = ts[len(ts)-1].ID
			}
			return uikit.Emit(commentOnFileMsg{turn: turn, resource: resource})
		},
		Count: func(resource string) int {
			n := 0
			for _, a := range x.NotesOf(c.Session) {
				if a.Resource == resource && !a.Resolved {
					n++
				}
			}
			return n
		},
		Status: func() string { return watchStatus(x.Watch) },
		Close:  x.StopWatch,
	})
	if len(m.chat.WorkDirs) == 0 {
		return nil
	}
	return x.StartWatch(m.chat.WorkDirs[0])
}

// commentOnFileMsg asks the root for the comment prompt on a file of the
// changes view.
type commentOnFileMsg struct{ turn, resource string }

// onCommentOnFile opens the comment prompt over the changes view.
func (m *Model) onCommentOnFile(msg commentOnFileMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	return m.askComment(msg.turn, msg.resource, "Comment on "+ahpwire.AnnotationPlace(ahpwire.Annotation{Resource: msg.resource}))
}

// watchStatus says what the watch saw ("" without a watch).
func watchStatus(w *app.Watch) string {
	switch {
	case w == nil:
		return ""
	case w.Err != "":
		return "not watching the directory: " + w.Err
	case w.URI == "":
		return "starting to watch the directory…"
	case len(w.Changed) == 0:
		return "watching the directory: nothing changed on disk"
	}
	last := w.Changed[len(w.Changed)-1]
	seen := map[string]bool{}
	for _, c := range w.Changed {
		seen[c.URI] = true
	}
	return fmt.Sprintf("changed on disk: %d (last: %s %s)", len(seen), path.Base(last.URI), last.Type)
}
