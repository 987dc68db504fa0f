package ahpwire

// ActionSessionWorkingDirectoryReplaced is the type of
// SessionWorkingDirectoryReplaced.
const ActionSessionWorkingDirectoryReplaced = "session/workingDirectoryReplaced"

func init() {
	actionRegistry[ActionSessionWorkingDirectoryReplaced] = func() Action { return new(SessionWorkingDirectoryReplaced) }
}

// SessionWorkingDirectoryReplaced replaces one working directory of the
// session by another, in place.
type SessionWorkingDirectoryReplaced struct {
	Directory   string `json:"directory"`
	Replacement string `json:"replacement"`
}

// ActionType returns ActionSessionWorkingDirectoryReplaced.
func (*SessionWorkingDirectoryReplaced) ActionType() string {
	return ActionSessionWorkingDirectoryReplaced
}

// MarshalJSON encodes the action with its type.
func (a SessionWorkingDirectoryReplaced) MarshalJSON() ([]byte, error) {
	type plain SessionWorkingDirectoryReplaced
	return withType(ActionSessionWorkingDirectoryReplaced, plain(a))
}
