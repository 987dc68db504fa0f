package tui

import (
	"strings"
)

// changesHint names the changes view in the hint line once the chat (or
// its session: sessionChanges) has changed files: after an edit nothing
// else points to it.
func (m *chatModel) changesHint(sessionChanges bool) string {
	if m.c.ext == nil || len(m.c.ext.chatSets) == 0 && !sessionChanges {
		return ""
	}
	return m.c.km.Chat.Changes.Help().Key + " changes"
}

// steeringSentNotice begins the notice shown when a steering message went.
const steeringSentNotice = "steering sent"

// dropStaleNotices clears a "steering sent" notice once no turn runs: it
// speaks of the turn that ended and must not linger into the next one.
func (m *Model) dropStaleNotices() {
	if m.notice != "" && strings.HasPrefix(m.notice, steeringSentNotice) && (m.chat == nil || m.chat.state.Current == nil) {
		m.notice = ""
	}
}
