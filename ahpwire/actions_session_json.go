// ActionType and MarshalJSON methods of the session and root actions.

package ahpwire

// ActionType returns ActionSessionReady.
func (*SessionReady) ActionType() string { return ActionSessionReady }

// MarshalJSON writes the action with its type.
func (a SessionReady) MarshalJSON() ([]byte, error) {
	type plain SessionReady
	return withType(ActionSessionReady, plain(a))
}

// ActionType returns ActionSessionCreationFailed.
func (*SessionCreationFailed) ActionType() string { return ActionSessionCreationFailed }

// MarshalJSON writes the action with its type.
func (a SessionCreationFailed) MarshalJSON() ([]byte, error) {
	type plain SessionCreationFailed
	return withType(ActionSessionCreationFailed, plain(a))
}

// ActionType returns ActionSessionChatAdded.
func (*SessionChatAdded) ActionType() string { return ActionSessionChatAdded }

// MarshalJSON writes the action with its type.
func (a SessionChatAdded) MarshalJSON() ([]byte, error) {
	type plain SessionChatAdded
	return withType(ActionSessionChatAdded, plain(a))
}

// ActionType returns ActionSessionChatRemoved.
func (*SessionChatRemoved) ActionType() string { return ActionSessionChatRemoved }

// MarshalJSON writes the action with its type.
func (a SessionChatRemoved) MarshalJSON() ([]byte, error) {
	type plain SessionChatRemoved
	return withType(ActionSessionChatRemoved, plain(a))
}

// ActionType returns ActionSessionChatUpdated.
func (*SessionChatUpdated) ActionType() string { return ActionSessionChatUpdated }

// MarshalJSON writes the action with its type.
func (a SessionChatUpdated) MarshalJSON() ([]byte, error) {
	type plain SessionChatUpdated
	return withType(ActionSessionChatUpdated, plain(a))
}

// ActionType returns ActionSessionDefaultChatChanged.
func (*SessionDefaultChatChanged) ActionType() string { return ActionSessionDefaultChatChanged }

// MarshalJSON writes the action with its type.
func (a SessionDefaultChatChanged) MarshalJSON() ([]byte, error) {
	type plain SessionDefaultChatChanged
	return withType(ActionSessionDefaultChatChanged, plain(a))
}

// ActionType returns ActionSessionTitleChanged.
func (*SessionTitleChanged) ActionType() string { return ActionSessionTitleChanged }

// MarshalJSON writes the action with its type.
func (a SessionTitleChanged) MarshalJSON() ([]byte, error) {
	type plain SessionTitleChanged
	return withType(ActionSessionTitleChanged, plain(a))
}

// ActionType returns ActionSessionActivityChanged.
func (*SessionActivityChanged) ActionType() string { return ActionSessionActivityChanged }

// MarshalJSON writes the action with its type.
func (a SessionActivityChanged) MarshalJSON() ([]byte, error) {
	type plain SessionActivityChanged
	return withType(ActionSessionActivityChanged, plain(a))
}

// ActionType returns ActionSessionIsReadChanged.
func (*SessionIsReadChanged) ActionType() string { return ActionSessionIsReadChanged }

// MarshalJSON writes the action with its type.
func (a SessionIsReadChanged) MarshalJSON() ([]byte, error) {
	type plain SessionIsReadChanged
	return withType(ActionSessionIsReadChanged, plain(a))
}

// ActionType returns ActionSessionIsArchivedChanged.
func (*SessionIsArchivedChanged) ActionType() string { return ActionSessionIsArchivedChanged }

// MarshalJSON writes the action with its type.
func (a SessionIsArchivedChanged) MarshalJSON() ([]byte, error) {
	type plain SessionIsArchivedChanged
	return withType(ActionSessionIsArchivedChanged, plain(a))
}

// ActionType returns ActionSessionChangesetsChanged.
func (*SessionChangesetsChanged) ActionType() string { return ActionSessionChangesetsChanged }

// MarshalJSON writes the action with its type.
func (a SessionChangesetsChanged) MarshalJSON() ([]byte, error) {
	type plain SessionChangesetsChanged
	return withType(ActionSessionChangesetsChanged, plain(a))
}

// ActionType returns ActionSessionServerToolsChanged.
func (*SessionServerToolsChanged) ActionType() string { return ActionSessionServerToolsChanged }

// MarshalJSON writes the action with its type.
func (a SessionServerToolsChanged) MarshalJSON() ([]byte, error) {
	type plain SessionServerToolsChanged
	return withType(ActionSessionServerToolsChanged, plain(a))
}

// ActionType returns ActionSessionActiveClientSet.
func (*SessionActiveClientSet) ActionType() string { return ActionSessionActiveClientSet }

// MarshalJSON writes the action with its type.
func (a SessionActiveClientSet) MarshalJSON() ([]byte, error) {
	type plain SessionActiveClientSet
	return withType(ActionSessionActiveClientSet, plain(a))
}

// ActionType returns ActionSessionActiveClientRemoved.
func (*SessionActiveClientRemoved) ActionType() string { return ActionSessionActiveClientRemoved }

// MarshalJSON writes the action with its type.
func (a SessionActiveClientRemoved) MarshalJSON() ([]byte, error) {
	type plain SessionActiveClientRemoved
	return withType(ActionSessionActiveClientRemoved, plain(a))
}

// ActionType returns ActionSessionWorkingDirectorySet.
func (*SessionWorkingDirectorySet) ActionType() string { return ActionSessionWorkingDirectorySet }

// MarshalJSON writes the action with its type.
func (a SessionWorkingDirectorySet) MarshalJSON() ([]byte, error) {
	type plain SessionWorkingDirectorySet
	return withType(ActionSessionWorkingDirectorySet, plain(a))
}

// ActionType returns ActionSessionWorkingDirectoryRemoved.
func (*SessionWorkingDirectoryRemoved) ActionType() string {
	return ActionSessionWorkingDirectoryRemoved
}

// MarshalJSON writes the action with its type.
func (a SessionWorkingDirectoryRemoved) MarshalJSON() ([]byte, error) {
	type plain SessionWorkingDirectoryRemoved
	return withType(ActionSessionWorkingDirectoryRemoved, plain(a))
}

// ActionType returns ActionSessionInputNeededSet.
func (*SessionInputNeededSet) ActionType() string { return ActionSessionInputNeededSet }

// MarshalJSON writes the action with its type.
func (a SessionInputNeededSet) MarshalJSON() ([]byte, error) {
	type plain SessionInputNeededSet
	return withType(ActionSessionInputNeededSet, plain(a))
}

// ActionType returns ActionSessionInputNeededRemoved.
func (*SessionInputNeededRemoved) ActionType() string { return ActionSessionInputNeededRemoved }

// MarshalJSON writes the action with its type.
func (a SessionInputNeededRemoved) MarshalJSON() ([]byte, error) {
	type plain SessionInputNeededRemoved
	return withType(ActionSessionInputNeededRemoved, plain(a))
}

// ActionType returns ActionSessionCustomizationsChanged.
func (*SessionCustomizationsChanged) ActionType() string { return ActionSessionCustomizationsChanged }

// MarshalJSON writes the action with its type.
func (a SessionCustomizationsChanged) MarshalJSON() ([]byte, error) {
	type plain SessionCustomizationsChanged
	return withType(ActionSessionCustomizationsChanged, plain(a))
}

// ActionType returns ActionSessionConfigChanged.
func (*SessionConfigChanged) ActionType() string { return ActionSessionConfigChanged }

// MarshalJSON writes the action with its type.
func (a SessionConfigChanged) MarshalJSON() ([]byte, error) {
	type plain SessionConfigChanged
	return withType(ActionSessionConfigChanged, plain(a))
}

// ActionType returns ActionSessionMetaChanged.
func (*SessionMetaChanged) ActionType() string { return ActionSessionMetaChanged }

// MarshalJSON writes the action with its type.
func (a SessionMetaChanged) MarshalJSON() ([]byte, error) {
	type plain SessionMetaChanged
	return withType(ActionSessionMetaChanged, plain(a))
}

// ActionType returns ActionRootAgentsChanged.
func (*RootAgentsChanged) ActionType() string { return ActionRootAgentsChanged }

// MarshalJSON writes the action with its type.
func (a RootAgentsChanged) MarshalJSON() ([]byte, error) {
	type plain RootAgentsChanged
	return withType(ActionRootAgentsChanged, plain(a))
}

// ActionType returns ActionRootActiveSessionsChanged.
func (*RootActiveSessionsChanged) ActionType() string { return ActionRootActiveSessionsChanged }

// MarshalJSON writes the action with its type.
func (a RootActiveSessionsChanged) MarshalJSON() ([]byte, error) {
	type plain RootActiveSessionsChanged
	return withType(ActionRootActiveSessionsChanged, plain(a))
}

// ActionType returns ActionRootTerminalsChanged.
func (*RootTerminalsChanged) ActionType() string { return ActionRootTerminalsChanged }

// MarshalJSON writes the action with its type.
func (a RootTerminalsChanged) MarshalJSON() ([]byte, error) {
	type plain RootTerminalsChanged
	return withType(ActionRootTerminalsChanged, plain(a))
}

// ActionType returns ActionRootConfigChanged.
func (*RootConfigChanged) ActionType() string { return ActionRootConfigChanged }

// MarshalJSON writes the action with its type.
func (a RootConfigChanged) MarshalJSON() ([]byte, error) {
	type plain RootConfigChanged
	return withType(ActionRootConfigChanged, plain(a))
}
