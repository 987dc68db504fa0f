package chat

// changesHint names the changes view in the hint line once the chat (or
// its session: sessionChanges) has changed files: after an edit nothing
// else points to it.
func (m *Model) changesHint(sessionChanges bool) string {
	if len(m.AHP().Changesets) == 0 && !sessionChanges {
		return ""
	}
	return m.c.KM.Chat.Changes.Help().Key + " changes"
}

// SteeringSentNotice begins the notice shown when a steering message went.
const SteeringSentNotice = "steering sent"
