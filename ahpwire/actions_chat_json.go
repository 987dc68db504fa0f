// ActionType and MarshalJSON methods of the chat actions.

package ahpwire

// ActionType returns ActionChatTurnStarted.
func (*ChatTurnStarted) ActionType() string { return ActionChatTurnStarted }

// MarshalJSON writes the action with its type.
func (a ChatTurnStarted) MarshalJSON() ([]byte, error) {
	type plain ChatTurnStarted
	return withType(ActionChatTurnStarted, plain(a))
}

// ActionType returns ActionChatDelta.
func (*ChatDelta) ActionType() string { return ActionChatDelta }

// MarshalJSON writes the action with its type.
func (a ChatDelta) MarshalJSON() ([]byte, error) {
	type plain ChatDelta
	return withType(ActionChatDelta, plain(a))
}

// ActionType returns ActionChatResponsePart.
func (*ChatResponsePart) ActionType() string { return ActionChatResponsePart }

// MarshalJSON writes the action with its type.
func (a ChatResponsePart) MarshalJSON() ([]byte, error) {
	type plain ChatResponsePart
	return withType(ActionChatResponsePart, plain(a))
}

// ActionType returns ActionChatReasoning.
func (*ChatReasoning) ActionType() string { return ActionChatReasoning }

// MarshalJSON writes the action with its type.
func (a ChatReasoning) MarshalJSON() ([]byte, error) {
	type plain ChatReasoning
	return withType(ActionChatReasoning, plain(a))
}

// ActionType returns ActionChatUsage.
func (*ChatUsage) ActionType() string { return ActionChatUsage }

// MarshalJSON writes the action with its type.
func (a ChatUsage) MarshalJSON() ([]byte, error) {
	type plain ChatUsage
	return withType(ActionChatUsage, plain(a))
}

// ActionType returns ActionChatTurnComplete.
func (*ChatTurnComplete) ActionType() string { return ActionChatTurnComplete }

// MarshalJSON writes the action with its type.
func (a ChatTurnComplete) MarshalJSON() ([]byte, error) {
	type plain ChatTurnComplete
	return withType(ActionChatTurnComplete, plain(a))
}

// ActionType returns ActionChatTurnCancelled.
func (*ChatTurnCancelled) ActionType() string { return ActionChatTurnCancelled }

// MarshalJSON writes the action with its type.
func (a ChatTurnCancelled) MarshalJSON() ([]byte, error) {
	type plain ChatTurnCancelled
	return withType(ActionChatTurnCancelled, plain(a))
}

// ActionType returns ActionChatError.
func (*ChatError) ActionType() string { return ActionChatError }

// MarshalJSON writes the action with its type.
func (a ChatError) MarshalJSON() ([]byte, error) {
	type plain ChatError
	return withType(ActionChatError, plain(a))
}

// ActionType returns ActionChatTurnResume.
func (*ChatTurnResume) ActionType() string { return ActionChatTurnResume }

// MarshalJSON writes the action with its type.
func (a ChatTurnResume) MarshalJSON() ([]byte, error) {
	type plain ChatTurnResume
	return withType(ActionChatTurnResume, plain(a))
}

// ActionType returns ActionChatTruncated.
func (*ChatTruncated) ActionType() string { return ActionChatTruncated }

// MarshalJSON writes the action with its type.
func (a ChatTruncated) MarshalJSON() ([]byte, error) {
	type plain ChatTruncated
	return withType(ActionChatTruncated, plain(a))
}

// ActionType returns ActionChatTurnsLoaded.
func (*ChatTurnsLoaded) ActionType() string { return ActionChatTurnsLoaded }

// MarshalJSON writes the action with its type.
func (a ChatTurnsLoaded) MarshalJSON() ([]byte, error) {
	type plain ChatTurnsLoaded
	return withType(ActionChatTurnsLoaded, plain(a))
}

// ActionType returns ActionChatActivityChanged.
func (*ChatActivityChanged) ActionType() string { return ActionChatActivityChanged }

// MarshalJSON writes the action with its type.
func (a ChatActivityChanged) MarshalJSON() ([]byte, error) {
	type plain ChatActivityChanged
	return withType(ActionChatActivityChanged, plain(a))
}

// ActionType returns ActionChatToolCallStart.
func (*ChatToolCallStart) ActionType() string { return ActionChatToolCallStart }

// MarshalJSON writes the action with its type.
func (a ChatToolCallStart) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallStart
	return withType(ActionChatToolCallStart, plain(a))
}

// ActionType returns ActionChatToolCallDelta.
func (*ChatToolCallDelta) ActionType() string { return ActionChatToolCallDelta }

// MarshalJSON writes the action with its type.
func (a ChatToolCallDelta) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallDelta
	return withType(ActionChatToolCallDelta, plain(a))
}

// ActionType returns ActionChatToolCallReady.
func (*ChatToolCallReady) ActionType() string { return ActionChatToolCallReady }

// MarshalJSON writes the action with its type.
func (a ChatToolCallReady) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallReady
	return withType(ActionChatToolCallReady, plain(a))
}

// ActionType returns ActionChatToolCallConfirmed.
func (*ChatToolCallConfirmed) ActionType() string { return ActionChatToolCallConfirmed }

// MarshalJSON writes the action with its type.
func (a ChatToolCallConfirmed) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallConfirmed
	return withType(ActionChatToolCallConfirmed, plain(a))
}

// ActionType returns ActionChatToolCallComplete.
func (*ChatToolCallComplete) ActionType() string { return ActionChatToolCallComplete }

// MarshalJSON writes the action with its type.
func (a ChatToolCallComplete) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallComplete
	return withType(ActionChatToolCallComplete, plain(a))
}

// ActionType returns ActionChatToolCallResultConfirmed.
func (*ChatToolCallResultConfirmed) ActionType() string { return ActionChatToolCallResultConfirmed }

// MarshalJSON writes the action with its type.
func (a ChatToolCallResultConfirmed) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallResultConfirmed
	return withType(ActionChatToolCallResultConfirmed, plain(a))
}

// ActionType returns ActionChatToolCallContentChanged.
func (*ChatToolCallContentChanged) ActionType() string { return ActionChatToolCallContentChanged }

// MarshalJSON writes the action with its type.
func (a ChatToolCallContentChanged) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallContentChanged
	return withType(ActionChatToolCallContentChanged, plain(a))
}

// ActionType returns ActionChatToolCallAuthRequired.
func (*ChatToolCallAuthRequired) ActionType() string { return ActionChatToolCallAuthRequired }

// MarshalJSON writes the action with its type.
func (a ChatToolCallAuthRequired) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallAuthRequired
	return withType(ActionChatToolCallAuthRequired, plain(a))
}

// ActionType returns ActionChatToolCallAuthResolved.
func (*ChatToolCallAuthResolved) ActionType() string { return ActionChatToolCallAuthResolved }

// MarshalJSON writes the action with its type.
func (a ChatToolCallAuthResolved) MarshalJSON() ([]byte, error) {
	type plain ChatToolCallAuthResolved
	return withType(ActionChatToolCallAuthResolved, plain(a))
}

// ActionType returns ActionChatInputRequested.
func (*ChatInputRequested) ActionType() string { return ActionChatInputRequested }

// MarshalJSON writes the action with its type.
func (a ChatInputRequested) MarshalJSON() ([]byte, error) {
	type plain ChatInputRequested
	return withType(ActionChatInputRequested, plain(a))
}

// ActionType returns ActionChatInputAnswerChanged.
func (*ChatInputAnswerChanged) ActionType() string { return ActionChatInputAnswerChanged }

// MarshalJSON writes the action with its type.
func (a ChatInputAnswerChanged) MarshalJSON() ([]byte, error) {
	type plain ChatInputAnswerChanged
	return withType(ActionChatInputAnswerChanged, plain(a))
}

// ActionType returns ActionChatInputCompleted.
func (*ChatInputCompleted) ActionType() string { return ActionChatInputCompleted }

// MarshalJSON writes the action with its type.
func (a ChatInputCompleted) MarshalJSON() ([]byte, error) {
	type plain ChatInputCompleted
	return withType(ActionChatInputCompleted, plain(a))
}

// ActionType returns ActionChatPendingMessageSet.
func (*ChatPendingMessageSet) ActionType() string { return ActionChatPendingMessageSet }

// MarshalJSON writes the action with its type.
func (a ChatPendingMessageSet) MarshalJSON() ([]byte, error) {
	type plain ChatPendingMessageSet
	return withType(ActionChatPendingMessageSet, plain(a))
}

// ActionType returns ActionChatPendingMessageRemoved.
func (*ChatPendingMessageRemoved) ActionType() string { return ActionChatPendingMessageRemoved }

// MarshalJSON writes the action with its type.
func (a ChatPendingMessageRemoved) MarshalJSON() ([]byte, error) {
	type plain ChatPendingMessageRemoved
	return withType(ActionChatPendingMessageRemoved, plain(a))
}

// ActionType returns ActionChatQueuedMessagesReordered.
func (*ChatQueuedMessagesReordered) ActionType() string { return ActionChatQueuedMessagesReordered }

// MarshalJSON writes the action with its type.
func (a ChatQueuedMessagesReordered) MarshalJSON() ([]byte, error) {
	type plain ChatQueuedMessagesReordered
	return withType(ActionChatQueuedMessagesReordered, plain(a))
}

// ActionType returns ActionChatSteeringMessageSet.
func (*ChatSteeringMessageSet) ActionType() string { return ActionChatSteeringMessageSet }

// MarshalJSON writes the action with its type.
func (a ChatSteeringMessageSet) MarshalJSON() ([]byte, error) {
	type plain ChatSteeringMessageSet
	return withType(ActionChatSteeringMessageSet, plain(a))
}

// ActionType returns ActionChatSteeringMessageRemoved.
func (*ChatSteeringMessageRemoved) ActionType() string { return ActionChatSteeringMessageRemoved }

// MarshalJSON writes the action with its type.
func (a ChatSteeringMessageRemoved) MarshalJSON() ([]byte, error) {
	type plain ChatSteeringMessageRemoved
	return withType(ActionChatSteeringMessageRemoved, plain(a))
}

// ActionType returns ActionChatDraftChanged.
func (*ChatDraftChanged) ActionType() string { return ActionChatDraftChanged }

// MarshalJSON writes the action with its type.
func (a ChatDraftChanged) MarshalJSON() ([]byte, error) {
	type plain ChatDraftChanged
	return withType(ActionChatDraftChanged, plain(a))
}

// ActionType returns ActionChatIsReadChanged.
func (*ChatIsReadChanged) ActionType() string { return ActionChatIsReadChanged }

// MarshalJSON writes the action with its type.
func (a ChatIsReadChanged) MarshalJSON() ([]byte, error) {
	type plain ChatIsReadChanged
	return withType(ActionChatIsReadChanged, plain(a))
}

// ActionType returns ActionChatIsArchivedChanged.
func (*ChatIsArchivedChanged) ActionType() string { return ActionChatIsArchivedChanged }

// MarshalJSON writes the action with its type.
func (a ChatIsArchivedChanged) MarshalJSON() ([]byte, error) {
	type plain ChatIsArchivedChanged
	return withType(ActionChatIsArchivedChanged, plain(a))
}

// ActionType returns ActionChatWorkingDirectorySet.
func (*ChatWorkingDirectorySet) ActionType() string { return ActionChatWorkingDirectorySet }

// MarshalJSON writes the action with its type.
func (a ChatWorkingDirectorySet) MarshalJSON() ([]byte, error) {
	type plain ChatWorkingDirectorySet
	return withType(ActionChatWorkingDirectorySet, plain(a))
}

// ActionType returns ActionChatWorkingDirectoryRemoved.
func (*ChatWorkingDirectoryRemoved) ActionType() string { return ActionChatWorkingDirectoryRemoved }

// MarshalJSON writes the action with its type.
func (a ChatWorkingDirectoryRemoved) MarshalJSON() ([]byte, error) {
	type plain ChatWorkingDirectoryRemoved
	return withType(ActionChatWorkingDirectoryRemoved, plain(a))
}

// ActionType returns ActionChatBackgroundWorkSet.
func (*ChatBackgroundWorkSet) ActionType() string { return ActionChatBackgroundWorkSet }

// MarshalJSON writes the action with its type.
func (a ChatBackgroundWorkSet) MarshalJSON() ([]byte, error) {
	type plain ChatBackgroundWorkSet
	return withType(ActionChatBackgroundWorkSet, plain(a))
}

// ActionType returns ActionChatBackgroundWorkRemoved.
func (*ChatBackgroundWorkRemoved) ActionType() string { return ActionChatBackgroundWorkRemoved }

// MarshalJSON writes the action with its type.
func (a ChatBackgroundWorkRemoved) MarshalJSON() ([]byte, error) {
	type plain ChatBackgroundWorkRemoved
	return withType(ActionChatBackgroundWorkRemoved, plain(a))
}

// ActionType returns ActionChatMovableChanged.
func (*ChatMovableChanged) ActionType() string { return ActionChatMovableChanged }

// MarshalJSON writes the action with its type.
func (a ChatMovableChanged) MarshalJSON() ([]byte, error) {
	type plain ChatMovableChanged
	return withType(ActionChatMovableChanged, plain(a))
}

// ActionType returns ActionChatChangesetsChanged.
func (*ChatChangesetsChanged) ActionType() string { return ActionChatChangesetsChanged }

// MarshalJSON writes the action with its type.
func (a ChatChangesetsChanged) MarshalJSON() ([]byte, error) {
	type plain ChatChangesetsChanged
	return withType(ActionChatChangesetsChanged, plain(a))
}

// ActionType returns ActionChatCanvasesChanged.
func (*ChatCanvasesChanged) ActionType() string { return ActionChatCanvasesChanged }

// MarshalJSON writes the action with its type.
func (a ChatCanvasesChanged) MarshalJSON() ([]byte, error) {
	type plain ChatCanvasesChanged
	return withType(ActionChatCanvasesChanged, plain(a))
}
