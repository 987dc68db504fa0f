// Session customization actions: edits of one entry of
// SessionState.customizations (kept raw) by id, and MCP server state.

package ahpwire

import "encoding/json"

// Session customization action discriminators.
const (
	// ActionSessionCustomizationToggled is the type of SessionCustomizationToggled.
	ActionSessionCustomizationToggled = "session/customizationToggled"
	// ActionSessionCustomizationUpdated is the type of SessionCustomizationUpdated.
	ActionSessionCustomizationUpdated = "session/customizationUpdated"
	// ActionSessionCustomizationRemoved is the type of SessionCustomizationRemoved.
	ActionSessionCustomizationRemoved = "session/customizationRemoved"
	// ActionSessionMCPServerStateChanged is the type of SessionMCPServerStateChanged.
	ActionSessionMCPServerStateChanged = "session/mcpServerStateChanged"
	// ActionSessionMCPServerStartRequested is the type of SessionMCPServerStartRequested.
	ActionSessionMCPServerStartRequested = "session/mcpServerStartRequested"
	// ActionSessionMCPServerStopRequested is the type of SessionMCPServerStopRequested.
	ActionSessionMCPServerStopRequested = "session/mcpServerStopRequested"
)

func init() {
	actionRegistry[ActionSessionCustomizationToggled] = func() Action { return new(SessionCustomizationToggled) }
	actionRegistry[ActionSessionCustomizationUpdated] = func() Action { return new(SessionCustomizationUpdated) }
	actionRegistry[ActionSessionCustomizationRemoved] = func() Action { return new(SessionCustomizationRemoved) }
	actionRegistry[ActionSessionMCPServerStateChanged] = func() Action { return new(SessionMCPServerStateChanged) }
	actionRegistry[ActionSessionMCPServerStartRequested] = func() Action { return new(SessionMCPServerStartRequested) }
	actionRegistry[ActionSessionMCPServerStopRequested] = func() Action { return new(SessionMCPServerStopRequested) }
}

// SessionCustomizationToggled enables or disables the customization with
// the given id.
type SessionCustomizationToggled struct {
	ID      string `json:"id"`
	Enabled bool   `json:"enabled"`
}

// SessionCustomizationUpdated replaces the top-level customization with the
// same id, or appends it.
type SessionCustomizationUpdated struct {
	Customization json.RawMessage `json:"customization"`
}

// SessionCustomizationRemoved removes the top-level customization with the
// given id, children included.
type SessionCustomizationRemoved struct {
	ID string `json:"id"`
}

// SessionMCPServerStateChanged sets the state (and channel, when given) of
// the MCP server customization with the given id, top-level or child.
type SessionMCPServerStateChanged struct {
	ID      string          `json:"id"`
	State   json.RawMessage `json:"state"`
	Channel string          `json:"channel,omitempty"`
}

// SessionMCPServerStartRequested asks to start the MCP server with the
// given id; it enters the "starting" state.
type SessionMCPServerStartRequested struct {
	ID string `json:"id"`
}

// SessionMCPServerStopRequested asks to stop the MCP server with the given
// id; it enters the "stopped" state.
type SessionMCPServerStopRequested struct {
	ID string `json:"id"`
}

// ActionType returns ActionSessionCustomizationToggled.
func (*SessionCustomizationToggled) ActionType() string { return ActionSessionCustomizationToggled }

// ActionType returns ActionSessionCustomizationUpdated.
func (*SessionCustomizationUpdated) ActionType() string { return ActionSessionCustomizationUpdated }

// ActionType returns ActionSessionCustomizationRemoved.
func (*SessionCustomizationRemoved) ActionType() string { return ActionSessionCustomizationRemoved }

// ActionType returns ActionSessionMCPServerStateChanged.
func (*SessionMCPServerStateChanged) ActionType() string { return ActionSessionMCPServerStateChanged }

// ActionType returns ActionSessionMCPServerStartRequested.
func (*SessionMCPServerStartRequested) ActionType() string {
	return ActionSessionMCPServerStartRequested
}

// ActionType returns ActionSessionMCPServerStopRequested.
func (*SessionMCPServerStopRequested) ActionType() string { return ActionSessionMCPServerStopRequested }

// MarshalJSON encodes the action with its type.
func (a SessionCustomizationToggled) MarshalJSON() ([]byte, error) {
	type plain SessionCustomizationToggled
	return withType(ActionSessionCustomizationToggled, plain(a))
}

// MarshalJSON encodes the action with its type.
func (a SessionCustomizationUpdated) MarshalJSON() ([]byte, error) {
	type plain SessionCustomizationUpdated
	return withType(ActionSessionCustomizationUpdated, plain(a))
}

// MarshalJSON encodes the action with its type.
func (a SessionCustomizationRemoved) MarshalJSON() ([]byte, error) {
	type plain SessionCustomizationRemoved
	return withType(ActionSessionCustomizationRemoved, plain(a))
}

// MarshalJSON encodes the action with its type.
func (a SessionMCPServerStateChanged) MarshalJSON() ([]byte, error) {
	type plain SessionMCPServerStateChanged
	return withType(ActionSessionMCPServerStateChanged, plain(a))
}

// MarshalJSON encodes the action with its type.
func (a SessionMCPServerStartRequested) MarshalJSON() ([]byte, error) {
	type plain SessionMCPServerStartRequested
	return withType(ActionSessionMCPServerStartRequested, plain(a))
}

// MarshalJSON encodes the action with its type.
func (a SessionMCPServerStopRequested) MarshalJSON() ([]byte, error) {
	type plain SessionMCPServerStopRequested
	return withType(ActionSessionMCPServerStopRequested, plain(a))
}
