package ahpwire

// AttentionRank orders sessions by how much they need the user, lowest
// first: 0 a question or an approval is waiting, 1 the session failed, 2 a
// turn is running, 3 unread, 4 the rest. Ranks 0 and 1 need the user. The
// inbox (TUI and `ahptui sessions`) sorts by it, so both agree.
func (s SessionSummary) AttentionRank() int {
	switch a := s.Status.Activity(); {
	case a == StatusInputNeeded:
		return 0
	case a == StatusError:
		return 1
	case a == StatusInProgress:
		return 2
	case !s.Status.Has(StatusIsRead):
		return 3
	}
	return 4
}

// NeedsUser reports whether the session waits for the user or has failed
// (AttentionRank 0 or 1).
func (s SessionSummary) NeedsUser() bool { return s.AttentionRank() <= 1 }
