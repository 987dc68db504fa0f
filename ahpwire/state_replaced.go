package ahpwire

// session/stateReplaced (AHP, types/channels-session/actions.ts,
// SessionStateReplacedAction): the authoritative state of a session was
// replaced while its channel stays subscribed — full replacement. A host
// sends it when something no other action carries changed, such as the
// session's configuration schema after creation.

// ActionSessionStateReplaced is the type of SessionStateReplaced.
const ActionSessionStateReplaced = "session/stateReplaced"

func init() {
	actionRegistry[ActionSessionStateReplaced] = func() Action { return new(SessionStateReplaced) }
}

// SessionStateReplaced replaces the whole session state (server-only).
type SessionStateReplaced struct {
	State SessionState `json:"state"`
}

// ActionType returns ActionSessionStateReplaced.
func (*SessionStateReplaced) ActionType() string { return ActionSessionStateReplaced }

// MarshalJSON encodes the action with its type.
func (a SessionStateReplaced) MarshalJSON() ([]byte, error) {
	type plain SessionStateReplaced
	return withType(ActionSessionStateReplaced, plain(a))
}
