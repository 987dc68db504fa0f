package picker

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Picker intents of the session features: rename, archive, read state.
type (
	// RenameRequestMsg asks the root for a rename prompt.
	RenameRequestMsg struct{ Session, Title string }
)

// sessionActionKey handles the picker's rename, archive, read-state and
// show-archived keys.
func (p *Model) sessionActionKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, p.KM.ShowArchived) {
		p.showArchived = !p.showArchived
		p.refilter()
		if p.showArchived {
			p.note = "showing archived sessions"
		} else {
			p.note = "archived sessions hidden"
		}
		return nil
	}
	r := p.SelectedResource()
	if r == "" || p.otherHost() {
		return nil
	}
	e := p.Entries[p.Shown[p.Cursor].Index]
	switch {
	case key.Matches(k, p.KM.Rename):
		return uikit.Emit(RenameRequestMsg{Session: r, Title: e.Summary.Title})
	case key.Matches(k, p.KM.Archive):
		arch := !e.Summary.Status.Has(ahpwire.StatusIsArchived)
		what := "archive session"
		if !arch {
			what = "unarchive session"
		}
		return uikit.Emit(dialog.SessionActionMsg{Session: r, Action: &ahpwire.SessionIsArchivedChanged{IsArchived: arch}, What: what})
	default:
		read := !e.Summary.Status.Has(ahpwire.StatusIsRead)
		return uikit.Emit(dialog.SessionActionMsg{Session: r, Action: &ahpwire.SessionIsReadChanged{IsRead: read}, What: "mark read/unread"})
	}
}

// visible reports whether an entry is listed (archived ones only on demand).
func (p *Model) visible(e pickerEntry) bool {
	return p.showArchived || !e.Summary.Status.Has(ahpwire.StatusIsArchived)
}

// markers are the read-state and archive markers of a row.
func markers(st *uikit.Styles, s ahpwire.SessionStatus) string {
	out := ""
	if !s.Has(ahpwire.StatusIsRead) {
		out += st.Picker.IconBusy.Render("•") + " "
	} else {
		out += "  "
	}
	return out
}

// archivedTag is appended to archived rows.
func archivedTag(st *uikit.Styles, s ahpwire.SessionStatus) string {
	if s.Has(ahpwire.StatusIsArchived) {
		return st.Picker.Meta.Render(" [archived]")
	}
	return ""
}
