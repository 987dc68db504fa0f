package chat

import (
	"github.com/ahptui/ahptui/ahpwire"
)

// Subagents: a tool call that runs a subagent shows its chat as a block;
// enter on it (or the background list, background.go) opens that chat,
// and the parent key goes back.

// OpenChildMsg asks the root to open another chat of the session (a
// subagent's, or back to the parent); parent is set on the new chat.
type OpenChildMsg struct {
	Chat   string
	Parent string
}

// focusedSubagent is the chat of the focused tool block's subagent ("" none).
func (m *Model) focusedSubagent() string {
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
