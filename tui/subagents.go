package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
)

// Subagents: chat/subagents.go finds the focused one; the root opens its
// chat here.

// openChild opens another chat of the session (a subagent's, or the
// parent) in place of the open one.
func (m *Model) openChild(msg chat.OpenChildMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	session, old := m.chat.Session, m.chat.URI
	cmd := m.openChat(session, msg.Chat)
	if msg.Parent != "" {
		m.chat.Extras.Parent = msg.Parent
	}
	return tea.Batch(app.Unsubscribe(m.c.Ctx, m.c.Backend, old), cmd)
}
