package ahpwire

// SessionStatus is the status bitset shared by sessions and chats. Unknown
// bits are preserved.
type SessionStatus uint32

// SessionStatus bits (PROTOCOL.md §5.3).
const (
	StatusIdle        SessionStatus = 1
	StatusError       SessionStatus = 2
	StatusInProgress  SessionStatus = 8
	StatusInputNeeded SessionStatus = 24 // InProgress | 16
	StatusIsRead      SessionStatus = 32
	StatusIsArchived  SessionStatus = 64
	// StatusActivityMask covers the activity part (bits 0–4).
	StatusActivityMask SessionStatus = 31
)

// Activity returns the activity bits (mask 31).
func (s SessionStatus) Activity() SessionStatus { return s & StatusActivityMask }

// ActivityName names the activity in one word: "needs-input", "error",
// "running", "idle", or "unknown" for bits AHP does not define. It is the
// one word every output (the sessions table, its JSON) uses.
func (s SessionStatus) ActivityName() string {
	switch s.Activity() {
	case StatusInputNeeded:
		return "needs-input"
	case StatusError:
		return "error"
	case StatusInProgress:
		return "running"
	case StatusIdle:
		return "idle"
	}
	return "unknown"
}

// WithActivity replaces the activity bits with a, keeping all other bits.
func (s SessionStatus) WithActivity(a SessionStatus) SessionStatus {
	return (s &^ StatusActivityMask) | (a & StatusActivityMask)
}

// Has reports whether all bits of f are set.
func (s SessionStatus) Has(f SessionStatus) bool { return s&f == f }

// With sets or clears the bits of f.
func (s SessionStatus) With(f SessionStatus, on bool) SessionStatus {
	if on {
		return s | f
	}
	return s &^ f
}
