package tui

import (
	"strings"

	"github.com/ahptui/ahptui/tui/chat"
)

// dropStaleNotices clears a "steering sent" notice once no turn runs: it
// speaks of the turn that ended and must not linger into the next one.
func (m *Model) dropStaleNotices() {
	if m.notice != "" && strings.HasPrefix(m.notice, chat.SteeringSentNotice) && (m.chat == nil || m.chat.State.Current == nil) {
		m.notice = ""
	}
}
