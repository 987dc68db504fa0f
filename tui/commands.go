package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
)

// onDispatched: a failed dispatch is a notice, and a message that did not
// reach the open chat is kept visibly (chat/unsent.go).
func (m *Model) onDispatched(msg app.DispatchedMsg) tea.Cmd {
	if msg.Err != nil {
		if t := chat.SentText(msg.Action); t != "" && m.chat != nil && msg.Channel == m.chat.URI {
			m.chat.AddUnsent(t, app.ErrText(msg.Err))
		}
		return m.errNotice("", msg.Err)
	}
	return nil
}
