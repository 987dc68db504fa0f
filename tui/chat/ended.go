package chat

import (
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// The end of a session (SESSION_END): a session that fails, is removed, or
// no longer has this chat ends the transcript through the reducer's
// SessionEnd (a reply still streaming is finalised as interrupted), and
// the hint line says why; what is sent afterwards is kept as unsent, for
// a new session (ctrl+n).

// OnSession ends the transcript when the session's change (a, nil for a
// snapshot) or its state ss, both the Mirror's, ends the session for this
// chat (reducer.Derive for session/creationFailed and session/chatRemoved,
// reducer.SessionEnded for the state).
func (m *Model) OnSession(a ahpwire.Action, ss ahpwire.SessionState) {
	if a != nil {
		cs := m.AHP()
		if cs.Resource == "" {
			cs.Resource = m.URI
		}
		for _, d := range reducer.Derive(a, cs, cs) {
			if end, ok := d.(reducer.SessionEnd); ok {
				m.EndSession(end)
				return
			}
		}
	}
	if end, ok := reducer.SessionEnded(ss, m.URI); ok {
		m.EndSession(end)
	}
}

// EndSession ends the transcript with end (once).
func (m *Model) EndSession(end reducer.SessionEnd) {
	if m.ended != nil {
		return
	}
	m.ended = &end
	m.State = reducer.Reduce(m.State, end)
	m.LoadErr = endText(end)
	m.StrandOutbox(m.LoadErr)
	m.syncTranscript()
	m.Relayout()
}

// Ended reports whether the session ended for this chat (EndSession).
func (m *Model) Ended() bool { return m.ended != nil }

// endText says why the session ended, for the hint line.
func endText(end reducer.SessionEnd) string {
	text := "session ended: " + end.Reason
	if end.Error != nil && end.Error.Message != "" {
		text += " (" + end.Error.Message + ")"
	}
	return text
}
