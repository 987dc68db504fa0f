package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// The changes view (dialog.Changes) opens from the chat (f6) on the chat's
// changesets, else its session's; it reads and pins them through the side
// channels (app/channels.go), which implement dialog.ChangeSource, and
// syncExt (visible_sync.go) loads the contents of its open diff.

// openChanges opens the changes view of the chat (f6).
func (m *Model) openChanges() tea.Cmd {
	return m.openChangesOn(m.changesets())
}

// openChangesOn opens the changes view on the catalogue sets.
func (m *Model) openChangesOn(sets []ahpwire.Changeset) tea.Cmd {
	o, cmd := dialog.NewChanges(m.c.Channels, m.c.Dispatch, m.c.Renderer, m.c.KM.Changes, sets)
	watch := m.changesNotes(o) // notes_changes.go
	m.overlays = append(m.overlays, o)
	return tea.Batch(cmd, watch)
}

// changesets is the catalogue of the chat, else of its session.
func (m *Model) changesets() []ahpwire.Changeset {
	if m.chat != nil {
		if cs := m.chat.AHP().Changesets; len(cs) > 0 {
			return cs
		}
	}
	if ss := m.sessionState(); ss != nil {
		return ss.Changesets
	}
	return nil
}
