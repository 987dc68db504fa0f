package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

// Subagents: a tool call that runs a subagent shows its chat as a block;
// enter on it (or the background list, background.go) opens that chat,
// and the parent key goes back.

// openChildMsg asks the root to open another chat of the session (a
// subagent's, or back to the parent); parent is set on the new chat.
type openChildMsg struct {
	chat   string
	parent string
}

// openChild opens another chat of the session (a subagent's, or the
// parent) in place of the open one.
func (m *Model) openChild(msg openChildMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	session, old := m.chat.session, m.chat.chat
	cmd := m.openChat(session, msg.chat)
	if msg.parent != "" {
		m.chat.x.parent = msg.parent
	}
	return tea.Batch(unsubscribe(m.c.ctx, m.c.backend, old), cmd)
}

// focusedSubagent is the chat of the focused tool block's subagent ("" none).
func (m *chatModel) focusedSubagent() string {
	b := m.focusedBlock()
	if b == nil || b.Tool == nil {
		return ""
	}
	for _, c := range b.Tool.Content {
		if c.Type == ahpwire.ContentSubagent && c.Resource != "" {
			return c.Resource
		}
	}
	return ""
}
