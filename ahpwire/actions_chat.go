package ahpwire

import "encoding/json"

// ChatTurnStarted starts a turn (client: user send; server: queued message).
type ChatTurnStarted struct {
	TurnID          string      `json:"turnId"`
	StartedAt       string      `json:"startedAt,omitempty"`
	Message         ChatMessage `json:"message"`
	QueuedMessageID string      `json:"queuedMessageId,omitempty"`
	Meta            Meta        `json:"_meta,omitempty"`
}

// ChatDelta appends text to the markdown part PartID.
type ChatDelta struct {
	TurnID  string `json:"turnId"`
	PartID  string `json:"partId"`
	Content string `json:"content"`
	Meta    Meta   `json:"_meta,omitempty"`
}

// ChatResponsePart appends a response part to the active turn.
type ChatResponsePart struct {
	TurnID string       `json:"turnId"`
	Part   ResponsePart `json:"part"`
	Meta   Meta         `json:"_meta,omitempty"`
}

// ChatReasoning appends text to the reasoning part PartID.
type ChatReasoning struct {
	TurnID  string `json:"turnId"`
	PartID  string `json:"partId"`
	Content string `json:"content"`
	Meta    Meta   `json:"_meta,omitempty"`
}

// ChatUsage replaces the active turn's usage.
type ChatUsage struct {
	TurnID string    `json:"turnId"`
	Usage  UsageInfo `json:"usage"`
	Meta   Meta      `json:"_meta,omitempty"`
}

// ChatTurnComplete ends the turn normally. Duration (ms) is absent on
// pre-0.6 hosts.
type ChatTurnComplete struct {
	TurnID   string `json:"turnId"`
	Duration *int64 `json:"duration,omitempty"`
	Meta     Meta   `json:"_meta,omitempty"`
}

// ChatTurnCancelled ends the turn as cancelled.
type ChatTurnCancelled struct {
	TurnID   string `json:"turnId"`
	Duration *int64 `json:"duration,omitempty"`
	Meta     Meta   `json:"_meta,omitempty"`
}

// ChatError ends the turn with an error. Newer hosts send Part (an error
// response part); pre-0.9 hosts send Error. Use ErrorPart to read either.
type ChatError struct {
	TurnID   string        `json:"turnId"`
	Duration *int64        `json:"duration,omitempty"`
	Part     *ResponsePart `json:"part,omitempty"`
	Error    *ErrorInfo    `json:"error,omitempty"`
	Meta     Meta          `json:"_meta,omitempty"`
}

// ErrorPart returns the error response part, built from the legacy Error
// field when Part is absent.
func (a *ChatError) ErrorPart() ResponsePart {
	if a.Part != nil {
		return *a.Part
	}
	if a.Error != nil {
		return ErrorPart(*a.Error, false)
	}
	return ErrorPart(ErrorInfo{ErrorType: "unknown", Message: "unknown error"}, false)
}

// ErrorInfo returns the error details from Part or the legacy Error field.
func (a *ChatError) ErrorInfo() ErrorInfo {
	if a.Part != nil && a.Part.Error != nil {
		return *a.Part.Error
	}
	if a.Error != nil {
		return *a.Error
	}
	return ErrorInfo{}
}

// ChatTurnResume reopens the latest turn that ended in a resumable error.
type ChatTurnResume struct {
	TurnID string `json:"turnId"`
	Meta   Meta   `json:"_meta,omitempty"`
}

// ChatTruncated keeps turns up to and including TurnID ("" clears all).
type ChatTruncated struct {
	TurnID string `json:"turnId,omitempty"`
}

// ChatTurnsLoaded prepends older turns (oldest first).
type ChatTurnsLoaded struct {
	Turns           []Turn `json:"turns"`
	TurnsNextCursor string `json:"turnsNextCursor,omitempty"`
}

// ChatActivityChanged sets ("" clears) the chat activity.
type ChatActivityChanged struct {
	Activity string `json:"activity,omitempty"`
}

// ChatToolCallStart appends a streaming tool call.
type ChatToolCallStart struct {
	TurnID      string               `json:"turnId"`
	ToolCallID  string               `json:"toolCallId"`
	ToolName    string               `json:"toolName"`
	DisplayName string               `json:"displayName"`
	Intention   string               `json:"intention,omitempty"`
	Contributor *ToolCallContributor `json:"contributor,omitempty"`
	Meta        Meta                 `json:"_meta,omitempty"`
}

// ChatToolCallDelta streams partial tool input.
type ChatToolCallDelta struct {
	TurnID            string            `json:"turnId"`
	ToolCallID        string            `json:"toolCallId"`
	Content           string            `json:"content"`
	InvocationMessage *StringOrMarkdown `json:"invocationMessage,omitempty"`
	Meta              Meta              `json:"_meta,omitempty"`
}

// ChatToolCallReady completes the parameters or asks for re-confirmation.
type ChatToolCallReady struct {
	TurnID            string                  `json:"turnId"`
	ToolCallID        string                  `json:"toolCallId"`
	Contributor       *ToolCallContributor    `json:"contributor,omitempty"`
	Intention         string                  `json:"intention,omitempty"`
	InvocationMessage StringOrMarkdown        `json:"invocationMessage"`
	ToolInput         *ToolInput              `json:"toolInput,omitempty"`
	ConfirmationTitle *StringOrMarkdown       `json:"confirmationTitle,omitempty"`
	RiskAssessment    *ToolCallRiskAssessment `json:"riskAssessment,omitempty"`
	Edits             *FileEditCollection     `json:"edits,omitempty"`
	Editable          *bool                   `json:"editable,omitempty"`
	Confirmed         string                  `json:"confirmed,omitempty"`
	Options           []ConfirmationOption    `json:"options,omitempty"`
	Meta              Meta                    `json:"_meta,omitempty"`
}

// ChatToolCallConfirmed approves (Approved, Confirmed) or denies
// (Reason "denied"/"skipped") a pending tool call.
type ChatToolCallConfirmed struct {
	TurnID           string            `json:"turnId"`
	ToolCallID       string            `json:"toolCallId"`
	Approved         bool              `json:"approved"`
	Confirmed        string            `json:"confirmed,omitempty"`
	EditedToolInput  *string           `json:"editedToolInput,omitempty"`
	SelectedOptionID string            `json:"selectedOptionId,omitempty"`
	Reason           string            `json:"reason,omitempty"`
	ReasonMessage    *StringOrMarkdown `json:"reasonMessage,omitempty"`
	UserSuggestion   *ChatMessage      `json:"userSuggestion,omitempty"`
	Meta             Meta              `json:"_meta,omitempty"`
}

// ChatToolCallComplete reports a tool result.
type ChatToolCallComplete struct {
	TurnID                     string         `json:"turnId"`
	ToolCallID                 string         `json:"toolCallId"`
	Result                     ToolCallResult `json:"result"`
	RequiresResultConfirmation bool           `json:"requiresResultConfirmation,omitempty"`
	Meta                       Meta           `json:"_meta,omitempty"`
}

// ChatToolCallResultConfirmed approves or denies a tool result.
type ChatToolCallResultConfirmed struct {
	TurnID     string `json:"turnId"`
	ToolCallID string `json:"toolCallId"`
	Approved   bool   `json:"approved"`
	Meta       Meta   `json:"_meta,omitempty"`
}

// ChatToolCallContentChanged replaces a running tool call's live content.
type ChatToolCallContentChanged struct {
	TurnID     string              `json:"turnId"`
	ToolCallID string              `json:"toolCallId"`
	Content    []ToolResultContent `json:"content"`
	Meta       Meta                `json:"_meta,omitempty"`
}

// ChatToolCallAuthRequired pauses a running MCP tool call for auth.
type ChatToolCallAuthRequired struct {
	TurnID     string             `json:"turnId"`
	ToolCallID string             `json:"toolCallId"`
	Auth       McpAuthRequirement `json:"auth"`
	Meta       Meta               `json:"_meta,omitempty"`
}

// ChatToolCallAuthResolved resumes an auth-required tool call.
type ChatToolCallAuthResolved struct {
	TurnID     string `json:"turnId"`
	ToolCallID string `json:"toolCallId"`
	Meta       Meta   `json:"_meta,omitempty"`
}

// ChatInputRequested creates or replaces an input request.
type ChatInputRequested struct {
	Request ChatInputRequest `json:"request"`
}

// ChatInputAnswerChanged sets (nil Answer deletes) a draft answer.
type ChatInputAnswerChanged struct {
	RequestID  string           `json:"requestId"`
	QuestionID string           `json:"questionId"`
	Answer     *ChatInputAnswer `json:"answer,omitempty"`
}

// ChatInputCompleted resolves an input request.
type ChatInputCompleted struct {
	RequestID string                     `json:"requestId"`
	Response  string                     `json:"response"`
	Answers   map[string]ChatInputAnswer `json:"answers,omitempty"`
}

// ChatPendingMessageSet upserts a steering or queued message.
type ChatPendingMessageSet struct {
	Kind    string      `json:"kind"`
	ID      string      `json:"id"`
	Message ChatMessage `json:"message"`
}

// ChatPendingMessageRemoved removes a steering or queued message.
type ChatPendingMessageRemoved struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// ChatQueuedMessagesReordered reorders queued messages.
type ChatQueuedMessagesReordered struct {
	Order []string `json:"order"`
}

// ChatSteeringMessageSet upserts into the steering list (1.1 branch).
type ChatSteeringMessageSet struct {
	SteeringMessage PendingMessage `json:"steeringMessage"`
}

// ChatSteeringMessageRemoved removes from the steering list (1.1 branch).
type ChatSteeringMessageRemoved struct {
	ID string `json:"id"`
}

// ChatDraftChanged sets (nil clears) the draft.
type ChatDraftChanged struct {
	Draft *ChatMessage `json:"draft,omitempty"`
}

// ChatIsReadChanged sets or clears the IsRead bit.
type ChatIsReadChanged struct {
	IsRead bool `json:"isRead"`
}

// ChatIsArchivedChanged sets or clears the IsArchived bit.
type ChatIsArchivedChanged struct {
	IsArchived bool `json:"isArchived"`
}

// ChatWorkingDirectorySet adds a directory to the chat's subset.
type ChatWorkingDirectorySet struct {
	Directory string `json:"directory"`
}

// ChatWorkingDirectoryRemoved removes a directory from the chat's subset.
type ChatWorkingDirectoryRemoved struct {
	Directory string `json:"directory"`
}

// ChatBackgroundWorkSet upserts a background work entry.
type ChatBackgroundWorkSet struct {
	Work BackgroundWork `json:"work"`
}

// ChatBackgroundWorkRemoved removes a background work entry.
type ChatBackgroundWorkRemoved struct {
	ID string `json:"id"`
}

// ChatMovableChanged sets the movable flag.
type ChatMovableChanged struct {
	Movable bool `json:"movable"`
}

// ChatChangesetsChanged replaces (nil clears) the changeset catalogue.
type ChatChangesetsChanged struct {
	Changesets []Changeset `json:"changesets,omitempty"`
}

// ChatCanvasesChanged replaces the canvases list (kept raw).
type ChatCanvasesChanged struct {
	Canvases json.RawMessage `json:"canvases,omitempty"`
}
