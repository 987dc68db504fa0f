// Action type table: discriminator constants and the DecodeAction registry.

package ahpwire

// Action type discriminators.
const (
	// ActionChatTurnStarted is the type of ChatTurnStarted.
	ActionChatTurnStarted = "chat/turnStarted"
	// ActionChatDelta is the type of ChatDelta.
	ActionChatDelta = "chat/delta"
	// ActionChatResponsePart is the type of ChatResponsePart.
	ActionChatResponsePart = "chat/responsePart"
	// ActionChatReasoning is the type of ChatReasoning.
	ActionChatReasoning = "chat/reasoning"
	// ActionChatUsage is the type of ChatUsage.
	ActionChatUsage = "chat/usage"
	// ActionChatTurnComplete is the type of ChatTurnComplete.
	ActionChatTurnComplete = "chat/turnComplete"
	// ActionChatTurnCancelled is the type of ChatTurnCancelled.
	ActionChatTurnCancelled = "chat/turnCancelled"
	// ActionChatError is the type of ChatError.
	ActionChatError = "chat/error"
	// ActionChatTurnResume is the type of ChatTurnResume.
	ActionChatTurnResume = "chat/turnResume"
	// ActionChatTruncated is the type of ChatTruncated.
	ActionChatTruncated = "chat/truncated"
	// ActionChatTurnsLoaded is the type of ChatTurnsLoaded.
	ActionChatTurnsLoaded = "chat/turnsLoaded"
	// ActionChatActivityChanged is the type of ChatActivityChanged.
	ActionChatActivityChanged = "chat/activityChanged"
	// ActionChatToolCallStart is the type of ChatToolCallStart.
	ActionChatToolCallStart = "chat/toolCallStart"
	// ActionChatToolCallDelta is the type of ChatToolCallDelta.
	ActionChatToolCallDelta = "chat/toolCallDelta"
	// ActionChatToolCallReady is the type of ChatToolCallReady.
	ActionChatToolCallReady = "chat/toolCallReady"
	// ActionChatToolCallConfirmed is the type of ChatToolCallConfirmed.
	ActionChatToolCallConfirmed = "chat/toolCallConfirmed"
	// ActionChatToolCallComplete is the type of ChatToolCallComplete.
	ActionChatToolCallComplete = "chat/toolCallComplete"
	// ActionChatToolCallResultConfirmed is the type of ChatToolCallResultConfirmed.
	ActionChatToolCallResultConfirmed = "chat/toolCallResultConfirmed"
	// ActionChatToolCallContentChanged is the type of ChatToolCallContentChanged.
	ActionChatToolCallContentChanged = "chat/toolCallContentChanged"
	// ActionChatToolCallAuthRequired is the type of ChatToolCallAuthRequired.
	ActionChatToolCallAuthRequired = "chat/toolCallAuthRequired"
	// ActionChatToolCallAuthResolved is the type of ChatToolCallAuthResolved.
	ActionChatToolCallAuthResolved = "chat/toolCallAuthResolved"
	// ActionChatInputRequested is the type of ChatInputRequested.
	ActionChatInputRequested = "chat/inputRequested"
	// ActionChatInputAnswerChanged is the type of ChatInputAnswerChanged.
	ActionChatInputAnswerChanged = "chat/inputAnswerChanged"
	// ActionChatInputCompleted is the type of ChatInputCompleted.
	ActionChatInputCompleted = "chat/inputCompleted"
	// ActionChatPendingMessageSet is the type of ChatPendingMessageSet.
	ActionChatPendingMessageSet = "chat/pendingMessageSet"
	// ActionChatPendingMessageRemoved is the type of ChatPendingMessageRemoved.
	ActionChatPendingMessageRemoved = "chat/pendingMessageRemoved"
	// ActionChatQueuedMessagesReordered is the type of ChatQueuedMessagesReordered.
	ActionChatQueuedMessagesReordered = "chat/queuedMessagesReordered"
	// ActionChatSteeringMessageSet is the type of ChatSteeringMessageSet.
	ActionChatSteeringMessageSet = "chat/steeringMessageSet"
	// ActionChatSteeringMessageRemoved is the type of ChatSteeringMessageRemoved.
	ActionChatSteeringMessageRemoved = "chat/steeringMessageRemoved"
	// ActionChatDraftChanged is the type of ChatDraftChanged.
	ActionChatDraftChanged = "chat/draftChanged"
	// ActionChatIsReadChanged is the type of ChatIsReadChanged.
	ActionChatIsReadChanged = "chat/isReadChanged"
	// ActionChatIsArchivedChanged is the type of ChatIsArchivedChanged.
	ActionChatIsArchivedChanged = "chat/isArchivedChanged"
	// ActionChatWorkingDirectorySet is the type of ChatWorkingDirectorySet.
	ActionChatWorkingDirectorySet = "chat/workingDirectorySet"
	// ActionChatWorkingDirectoryRemoved is the type of ChatWorkingDirectoryRemoved.
	ActionChatWorkingDirectoryRemoved = "chat/workingDirectoryRemoved"
	// ActionChatBackgroundWorkSet is the type of ChatBackgroundWorkSet.
	ActionChatBackgroundWorkSet = "chat/backgroundWorkSet"
	// ActionChatBackgroundWorkRemoved is the type of ChatBackgroundWorkRemoved.
	ActionChatBackgroundWorkRemoved = "chat/backgroundWorkRemoved"
	// ActionChatMovableChanged is the type of ChatMovableChanged.
	ActionChatMovableChanged = "chat/movableChanged"
	// ActionChatChangesetsChanged is the type of ChatChangesetsChanged.
	ActionChatChangesetsChanged = "chat/changesetsChanged"
	// ActionChatCanvasesChanged is the type of ChatCanvasesChanged.
	ActionChatCanvasesChanged = "chat/canvasesChanged"
	// ActionSessionReady is the type of SessionReady.
	ActionSessionReady = "session/ready"
	// ActionSessionCreationFailed is the type of SessionCreationFailed.
	ActionSessionCreationFailed = "session/creationFailed"
	// ActionSessionChatAdded is the type of SessionChatAdded.
	ActionSessionChatAdded = "session/chatAdded"
	// ActionSessionChatRemoved is the type of SessionChatRemoved.
	ActionSessionChatRemoved = "session/chatRemoved"
	// ActionSessionChatUpdated is the type of SessionChatUpdated.
	ActionSessionChatUpdated = "session/chatUpdated"
	// ActionSessionDefaultChatChanged is the type of SessionDefaultChatChanged.
	ActionSessionDefaultChatChanged = "session/defaultChatChanged"
	// ActionSessionTitleChanged is the type of SessionTitleChanged.
	ActionSessionTitleChanged = "session/titleChanged"
	// ActionSessionActivityChanged is the type of SessionActivityChanged.
	ActionSessionActivityChanged = "session/activityChanged"
	// ActionSessionIsReadChanged is the type of SessionIsReadChanged.
	ActionSessionIsReadChanged = "session/isReadChanged"
	// ActionSessionIsArchivedChanged is the type of SessionIsArchivedChanged.
	ActionSessionIsArchivedChanged = "session/isArchivedChanged"
	// ActionSessionChangesetsChanged is the type of SessionChangesetsChanged.
	ActionSessionChangesetsChanged = "session/changesetsChanged"
	// ActionSessionServerToolsChanged is the type of SessionServerToolsChanged.
	ActionSessionServerToolsChanged = "session/serverToolsChanged"
	// ActionSessionActiveClientSet is the type of SessionActiveClientSet.
	ActionSessionActiveClientSet = "session/activeClientSet"
	// ActionSessionActiveClientRemoved is the type of SessionActiveClientRemoved.
	ActionSessionActiveClientRemoved = "session/activeClientRemoved"
	// ActionSessionWorkingDirectorySet is the type of SessionWorkingDirectorySet.
	ActionSessionWorkingDirectorySet = "session/workingDirectorySet"
	// ActionSessionWorkingDirectoryRemoved is the type of SessionWorkingDirectoryRemoved.
	ActionSessionWorkingDirectoryRemoved = "session/workingDirectoryRemoved"
	// ActionSessionInputNeededSet is the type of SessionInputNeededSet.
	ActionSessionInputNeededSet = "session/inputNeededSet"
	// ActionSessionInputNeededRemoved is the type of SessionInputNeededRemoved.
	ActionSessionInputNeededRemoved = "session/inputNeededRemoved"
	// ActionSessionCustomizationsChanged is the type of SessionCustomizationsChanged.
	ActionSessionCustomizationsChanged = "session/customizationsChanged"
	// ActionSessionConfigChanged is the type of SessionConfigChanged.
	ActionSessionConfigChanged = "session/configChanged"
	// ActionSessionMetaChanged is the type of SessionMetaChanged.
	ActionSessionMetaChanged = "session/metaChanged"
	// ActionRootAgentsChanged is the type of RootAgentsChanged.
	ActionRootAgentsChanged = "root/agentsChanged"
	// ActionRootActiveSessionsChanged is the type of RootActiveSessionsChanged.
	ActionRootActiveSessionsChanged = "root/activeSessionsChanged"
	// ActionRootTerminalsChanged is the type of RootTerminalsChanged.
	ActionRootTerminalsChanged = "root/terminalsChanged"
	// ActionRootConfigChanged is the type of RootConfigChanged.
	ActionRootConfigChanged = "root/configChanged"
)

// actionRegistry maps each typed action's discriminator to a constructor.
var actionRegistry = map[string]func() Action{
	ActionChatTurnStarted:                func() Action { return new(ChatTurnStarted) },
	ActionChatDelta:                      func() Action { return new(ChatDelta) },
	ActionChatResponsePart:               func() Action { return new(ChatResponsePart) },
	ActionChatReasoning:                  func() Action { return new(ChatReasoning) },
	ActionChatUsage:                      func() Action { return new(ChatUsage) },
	ActionChatTurnComplete:               func() Action { return new(ChatTurnComplete) },
	ActionChatTurnCancelled:              func() Action { return new(ChatTurnCancelled) },
	ActionChatError:                      func() Action { return new(ChatError) },
	ActionChatTurnResume:                 func() Action { return new(ChatTurnResume) },
	ActionChatTruncated:                  func() Action { return new(ChatTruncated) },
	ActionChatTurnsLoaded:                func() Action { return new(ChatTurnsLoaded) },
	ActionChatActivityChanged:            func() Action { return new(ChatActivityChanged) },
	ActionChatToolCallStart:              func() Action { return new(ChatToolCallStart) },
	ActionChatToolCallDelta:              func() Action { return new(ChatToolCallDelta) },
	ActionChatToolCallReady:              func() Action { return new(ChatToolCallReady) },
	ActionChatToolCallConfirmed:          func() Action { return new(ChatToolCallConfirmed) },
	ActionChatToolCallComplete:           func() Action { return new(ChatToolCallComplete) },
	ActionChatToolCallResultConfirmed:    func() Action { return new(ChatToolCallResultConfirmed) },
	ActionChatToolCallContentChanged:     func() Action { return new(ChatToolCallContentChanged) },
	ActionChatToolCallAuthRequired:       func() Action { return new(ChatToolCallAuthRequired) },
	ActionChatToolCallAuthResolved:       func() Action { return new(ChatToolCallAuthResolved) },
	ActionChatInputRequested:             func() Action { return new(ChatInputRequested) },
	ActionChatInputAnswerChanged:         func() Action { return new(ChatInputAnswerChanged) },
	ActionChatInputCompleted:             func() Action { return new(ChatInputCompleted) },
	ActionChatPendingMessageSet:          func() Action { return new(ChatPendingMessageSet) },
	ActionChatPendingMessageRemoved:      func() Action { return new(ChatPendingMessageRemoved) },
	ActionChatQueuedMessagesReordered:    func() Action { return new(ChatQueuedMessagesReordered) },
	ActionChatSteeringMessageSet:         func() Action { return new(ChatSteeringMessageSet) },
	ActionChatSteeringMessageRemoved:     func() Action { return new(ChatSteeringMessageRemoved) },
	ActionChatDraftChanged:               func() Action { return new(ChatDraftChanged) },
	ActionChatIsReadChanged:              func() Action { return new(ChatIsReadChanged) },
	ActionChatIsArchivedChanged:          func() Action { return new(ChatIsArchivedChanged) },
	ActionChatWorkingDirectorySet:        func() Action { return new(ChatWorkingDirectorySet) },
	ActionChatWorkingDirectoryRemoved:    func() Action { return new(ChatWorkingDirectoryRemoved) },
	ActionChatBackgroundWorkSet:          func() Action { return new(ChatBackgroundWorkSet) },
	ActionChatBackgroundWorkRemoved:      func() Action { return new(ChatBackgroundWorkRemoved) },
	ActionChatMovableChanged:             func() Action { return new(ChatMovableChanged) },
	ActionChatChangesetsChanged:          func() Action { return new(ChatChangesetsChanged) },
	ActionChatCanvasesChanged:            func() Action { return new(ChatCanvasesChanged) },
	ActionSessionReady:                   func() Action { return new(SessionReady) },
	ActionSessionCreationFailed:          func() Action { return new(SessionCreationFailed) },
	ActionSessionChatAdded:               func() Action { return new(SessionChatAdded) },
	ActionSessionChatRemoved:             func() Action { return new(SessionChatRemoved) },
	ActionSessionChatUpdated:             func() Action { return new(SessionChatUpdated) },
	ActionSessionDefaultChatChanged:      func() Action { return new(SessionDefaultChatChanged) },
	ActionSessionTitleChanged:            func() Action { return new(SessionTitleChanged) },
	ActionSessionActivityChanged:         func() Action { return new(SessionActivityChanged) },
	ActionSessionIsReadChanged:           func() Action { return new(SessionIsReadChanged) },
	ActionSessionIsArchivedChanged:       func() Action { return new(SessionIsArchivedChanged) },
	ActionSessionChangesetsChanged:       func() Action { return new(SessionChangesetsChanged) },
	ActionSessionServerToolsChanged:      func() Action { return new(SessionServerToolsChanged) },
	ActionSessionActiveClientSet:         func() Action { return new(SessionActiveClientSet) },
	ActionSessionActiveClientRemoved:     func() Action { return new(SessionActiveClientRemoved) },
	ActionSessionWorkingDirectorySet:     func() Action { return new(SessionWorkingDirectorySet) },
	ActionSessionWorkingDirectoryRemoved: func() Action { return new(SessionWorkingDirectoryRemoved) },
	ActionSessionInputNeededSet:          func() Action { return new(SessionInputNeededSet) },
	ActionSessionInputNeededRemoved:      func() Action { return new(SessionInputNeededRemoved) },
	ActionSessionCustomizationsChanged:   func() Action { return new(SessionCustomizationsChanged) },
	ActionSessionConfigChanged:           func() Action { return new(SessionConfigChanged) },
	ActionSessionMetaChanged:             func() Action { return new(SessionMetaChanged) },
	ActionRootAgentsChanged:              func() Action { return new(RootAgentsChanged) },
	ActionRootActiveSessionsChanged:      func() Action { return new(RootActiveSessionsChanged) },
	ActionRootTerminalsChanged:           func() Action { return new(RootTerminalsChanged) },
	ActionRootConfigChanged:              func() Action { return new(RootConfigChanged) },
}
