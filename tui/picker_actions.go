package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Picker intents of the session features: rename, archive, read state.
type (
	// renameRequestMsg asks the root for a rename prompt.
	renameRequestMsg struct{ Session, Title string }
)

// sessionActionKey handles the picker's rename, archive, read-state and
// show-archived keys.
func (p *picker) sessionActionKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, p.km.ShowArchived) {
		p.showArchived = !p.showArchived
		p.refilter()
		if p.showArchived {
			p.note = "showing archived sessions"
		} else {
			p.note = "archived sessions hidden"
		}
		return nil
	}
	r := p.selectedResource()
	if r == "" || p.otherHost() {
		return nil
	}
	e := p.entries[p.shown[p.cursor].Index]
	switch {
	case key.Matches(k, p.km.Rename):
		return uikit.Emit(renameRequestMsg{Session: r, Title: e.s.Title})
	case key.Matches(k, p.km.Archive):
		arch := !e.s.Status.Has(ahpwire.StatusIsArchived)
		what := "archive session"
		if !arch {
			what = "unarchive session"
		}
		return uikit.Emit(dialog.SessionActionMsg{Session: r, Action: &ahpwire.SessionIsArchivedChanged{IsArchived: arch}, What: what})
	default:
		read := !e.s.Status.Has(ahpwire.StatusIsRead)
		return uikit.Emit(dialog.SessionActionMsg{Session: r, Action: &ahpwire.SessionIsReadChanged{IsRead: read}, What: "mark read/unread"})
	}
}

// visible reports whether an entry is listed (archived ones only on demand).
func (p *picker) visible(e pickerEntry) bool {
	return p.showArchived || !e.s.Status.Has(ahpwire.StatusIsArchived)
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
