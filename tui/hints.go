package tui

// changesHint names the changes view in the hint line once the chat (or
// its session) has changed files: after an edit nothing else points to it.
func (m *chatModel) changesHint() string {
	if m.c.ext == nil || len(m.c.ext.chatSets) == 0 && !m.sessionChanges {
		return ""
	}
	return m.c.km.Chat.Changes.Help().Key + " changes"
}
