package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/dialog"
)

// The changes view (dialog.Changes) opens from the chat (f6) on the chat's
// changesets, else its session's; it reads and pins them through the side
// channels (sidechannels.go), which implement dialog.ChangeSource, and
// syncExt (visible_sync.go) loads the contents of its open diff.

// openChanges opens the changes view of the chat (f6).
func (m *Model) openChanges() tea.Cmd {
	return m.openChangesOn(m.changesets())
}

// openChangesOn opens the changes view on the catalogue sets.
func (m *Model) openChangesOn(sets []ahpwire.Changeset) tea.Cmd {
	o, cmd := dialog.NewChanges(m.c.ext, m.c.dispatch, m.c.renderer, m.c.km.Changes, sets)
	m.overlays = append(m.overlays, o)
	return cmd
}

// changesets is the catalogue of the chat, else of its session.
func (m *Model) changesets() []ahpwire.Changeset {
	if cs := m.c.ext.chatSets; len(cs) > 0 {
		return cs
	}
	if m.session != nil {
		return m.session.Changesets
	}
	return nil
}

// Changeset is uri's subscription (dialog.ChangeSource): its state, whether
// its snapshot arrived, why it failed; ok is false when not subscribed.
func (x *extChannels) Changeset(uri string) (st ahpwire.ChangesetState, ready bool, failed string, ok bool) {
	cs := x.changesets[uri]
	if cs == nil {
		return ahpwire.ChangesetState{}, false, "", false
	}
	return cs.state, cs.ready, cs.err, true
}

// AddViewOpts adds the live terminals, fetched contents and loading states.
func (x *extChannels) AddViewOpts(v *render.ViewOpts) { x.viewOpts(v) }
