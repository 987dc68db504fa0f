package chat

import (
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// NoteTarget is where a comment written on the focused block goes: the
// turn of its message, and the file of a focused file edit (else the chat
// itself). ok is false when nothing is focused or the message has no turn.
func (m *Model) NoteTarget() (turnID, resource string, ok bool) {
	sp := m.Transcript.FocusedSpan()
	if sp == nil {
		return "", "", false
	}
	msg, b := m.blockAt(sp.ID)
	if msg == nil || msg.TurnID == "" {
		return "", "", false
	}
	resource = m.URI
	if b != nil && b.Kind == reducer.KindToolCall && b.Tool != nil {
		for _, c := range b.Tool.Content {
			if c.Type != ahpwire.ContentFileEdit {
				continue
			}
			if c.After != nil {
				resource = c.After.URI
			} else if c.Before != nil {
				resource = c.Before.URI
			}
			break
		}
	}
	return msg.TurnID, resource, true
}

// NotesChanged draws the transcript anew: the comments under replies
// changed.
func (m *Model) NotesChanged() {
	m.Transcript.InvalidateAll()
	m.Transcript.Layout()
}
