package reducer

import (
	"encoding/json"
	"time"
)

// Action is one lifecycle action. The set is closed (sealed by an
// unexported method); Reduce ignores nothing it does not know because there
// is nothing else. Actions are values and are not modified by Reduce;
// pointers and slices inside them become shared with the resulting State and
// must not be changed afterwards.
type Action interface{ isAction() }

// MessageStart begins the assistant message of a turn (MESSAGE_START). An
// open Current is finalised first as StatusInterrupted (seed note 3).
type MessageStart struct {
	// ID is the message id (the AHP turn id).
	ID string
	// TurnID is the AHP turn id.
	TurnID    string
	StartedAt time.Time
}

// BlockStart appends a block to Current (BLOCK_START). Any kind may be
// started with its payload (Tool, Input, Err, Ref or Unknown); text and
// thinking start open, a tool call is open until terminal, an input request
// until answered, every other kind is closed at once. Tool calls usually
// start with ToolCallStart, errors with Error, input requests with
// InputRequested. A payload missing for its kind makes the action ignored.
type BlockStart struct {
	// MessageID must name Current.
	MessageID string
	// BlockID is the block's id ("" for parts without one).
	BlockID string
	Kind    BlockKind
	// Text is the initial content (text, thinking, system notification).
	Text string
	// Markdown marks system-notification content as markdown.
	Markdown bool
	// Redacted marks withheld thinking.
	Redacted bool
	Tool     *ToolCall
	Input    *InputRequest
	Err      *ErrorInfo
	Ref      *ContentRef
	Unknown  *UnknownPart
}

// BlockDelta appends text to an open text or thinking block of Current
// (BLOCK_DELTA). The first block with BlockID is the target; if its kind is
// not Kind, or it is closed, or the message is not Current, the delta is
// ignored and counted.
type BlockDelta struct {
	MessageID string
	BlockID   string
	// Kind is KindText or KindThinking.
	Kind  BlockKind
	Delta string
}

// BlockEnd closes a block of Current (BLOCK_END). A tool call that is not yet
// completed or cancelled becomes cancelled with reason "skipped" (AHP's
// endTurn rule); an open input request stays unanswered but closed.
type BlockEnd struct {
	MessageID string
	BlockID   string
}

// MessageEnd finalises Current into Messages (MESSAGE_END). Blocks still open
// are closed as by BlockEnd (and counted as forced).
type MessageEnd struct {
	MessageID string
	// Status is StatusComplete, StatusCancelled or StatusError.
	Status MessageStatus
	// Duration is the turn's reported duration (negative values clamp to 0).
	Duration time.Duration
}

// MessageSnapshot replaces Current with a snapshot of an in-flight message
// (MESSAGE_SNAPSHOT, used on reattach). Its open blocks continue to receive
// deltas. The message is adopted as is and must not be modified afterwards.
type MessageSnapshot struct {
	Message *Message
}

// SessionEnd ends the session (SESSION_END): Current is force-finalised as
// StatusInterrupted and Ended is set.
type SessionEnd struct {
	Reason string
	// Failed marks a failure; Error describes it.
	Failed bool
	Error  *ErrorInfo
}

// UserMessage appends a finished user message (USER_MESSAGE).
type UserMessage struct {
	// ID defaults to UserMessageID(TurnID) when empty.
	ID     string
	TurnID string
	Text   string
	// Origin is the AHP origin kind ("user" when empty).
	Origin      string
	Attachments []Attachment
	StartedAt   time.Time
}

// Error records an error (ERROR). With a MessageID naming Current it appends
// a closed KindError block to it (the turn is then ended by MessageEnd);
// otherwise it sets State.LastError.
type Error struct {
	MessageID string
	Info      ErrorInfo
}

// ToolCallStart appends a streaming tool-call block to Current.
type ToolCallStart struct {
	MessageID   string
	ToolCallID  string
	ToolName    string
	DisplayName string
	Intention   string
	Contributor *Contributor
	Meta        map[string]json.RawMessage
}

// ToolCallDelta appends streamed input to a streaming tool call and
// optionally replaces its invocation message.
type ToolCallDelta struct {
	MessageID  string
	ToolCallID string
	Content    string
	// InvocationMessage replaces the current one when non-nil.
	InvocationMessage *Rich
	// Meta replaces the tool call's meta when non-nil.
	Meta map[string]json.RawMessage
}

// ToolCallReady moves a streaming, running (re-confirmation) or
// pending-confirmation tool call to running (Confirmed set: auto-approved)
// or to pending-confirmation (fields merged with a previous pending state).
type ToolCallReady struct {
	MessageID         string
	ToolCallID        string
	InvocationMessage Rich
	Input             *ToolInput
	ConfirmationTitle *Rich
	Risk              *Risk
	// Edits are proposed edits; nil = not given.
	Edits    []FileEdit
	Editable *bool
	// Confirmed, when non-empty, auto-approves: the call goes to running.
	Confirmed string
	Options   []ConfirmOption
	// Intention and Contributor replace the call's when non-empty.
	Intention   string
	Contributor *Contributor
	Meta        map[string]json.RawMessage
}

// ToolCallConfirmed approves (to running) or denies (to cancelled) a
// pending-confirmation tool call.
type ToolCallConfirmed struct {
	MessageID  string
	ToolCallID string
	Approved   bool
	// Confirmed is how it was approved ("user-action", ...).
	Confirmed string
	// EditedInput replaces the input on approval when non-nil.
	EditedInput *ToolInput
	// SelectedOptionID picks one of the call's Options.
	SelectedOptionID string
	// Reason ("denied" or "skipped"), ReasonMessage and UserSuggestion
	// describe a denial.
	Reason         string
	ReasonMessage  *Rich
	UserSuggestion string
	Meta           map[string]json.RawMessage
}

// ToolResult completes a tool call (TOOL_RESULT; AHP chat/toolCallComplete):
// from running, pending-confirmation (then Confirmed becomes "not-needed")
// or auth-required (failed results only) to completed, or to
// pending-result-confirmation when RequiresResultConfirmation is set (not
// from auth-required). With an empty MessageID the newest tool call with the
// id in Current or, failing that, in Messages is targeted (seed semantics).
type ToolResult struct {
	MessageID  string
	ToolCallID string
	Result     ToolOutcome
	// Content is the result content (nil keeps pre-auth content).
	Content                    []ToolContent
	RequiresResultConfirmation bool
	Meta                       map[string]json.RawMessage
}

// ToolCallResultConfirmed accepts (to completed) or rejects (to cancelled,
// reason "result-denied") a pending-result-confirmation tool call.
type ToolCallResultConfirmed struct {
	MessageID  string
	ToolCallID string
	Approved   bool
	Meta       map[string]json.RawMessage
}

// ToolCallContentChanged replaces a running tool call's live content.
type ToolCallContentChanged struct {
	MessageID  string
	ToolCallID string
	Content    []ToolContent
	Meta       map[string]json.RawMessage
}

// ToolCallAuthRequired pauses a running MCP tool call for authentication.
type ToolCallAuthRequired struct {
	MessageID  string
	ToolCallID string
	Auth       AuthRequirement
	Meta       map[string]json.RawMessage
}

// ToolCallAuthResolved resumes an auth-required tool call (to running).
type ToolCallAuthResolved struct {
	MessageID  string
	ToolCallID string
	Meta       map[string]json.RawMessage
}

// UsageChanged replaces Current's usage.
type UsageChanged struct {
	MessageID string
	Usage     Usage
}

// InputRequested adds an input request block to Current (INPUT_REQUESTED),
// or replaces the open one with the same id in place, keeping its draft
// answers unless Request carries answers.
type InputRequested struct {
	Request InputRequest
}

// InputAnswered sets (or, with a nil Answer, deletes) a draft answer of an
// open input request in Current (INPUT_ANSWERED).
type InputAnswered struct {
	RequestID  string
	QuestionID string
	Answer     *InputAnswer
}

// InputCompleted merges Answers into an open input request of Current and
// sets its response, closing it (INPUT_COMPLETED).
type InputCompleted struct {
	RequestID string
	Response  string
	Answers   map[string]InputAnswer
}

// Restore replaces the whole transcript (RESTORE, history): Messages
// become the finished messages, Current is cleared, pending messages are
// replaced, Ended/LastError/Stats are kept. Messages must be finished and
// well-formed (non-nil, known role, non-empty id, blocks with payloads for
// their kinds); otherwise the restore is rejected and counted.
type Restore struct {
	// Chat, when non-empty, sets State.Chat.
	Chat     string
	Messages []*Message
	Steering *PendingMessage
	Queued   []PendingMessage
}

// HistoryLoaded prepends older finished messages (AHP chat/turnsLoaded),
// skipping those whose TurnID is already a finished turn. Invalid shapes are
// rejected as for Restore.
type HistoryLoaded struct {
	Messages []*Message
}

// Truncate drops Current and finished messages (AHP chat/truncated): with
// KeepThroughTurn it keeps every message up to the first finished assistant
// message of that turn (an unknown turn is a no-op); with All it drops
// everything; with ActiveOnly it drops just the active turn — Current and
// the user messages after the last finished assistant message (what AHP
// does when chat/turnStarted replaces an active turn).
type Truncate struct {
	KeepThroughTurn string
	All             bool
	ActiveOnly      bool
}

// MessageResume reopens the last finished assistant message as Current when
// it belongs to TurnID, ended in error and its last block is a resumable
// error (AHP chat/turnResume). Its text and thinking blocks and unanswered
// input requests become open again; the error block stays.
type MessageResume struct {
	TurnID string
}

// PendingMessageSet sets the steering message or upserts a queued message.
type PendingMessageSet struct {
	// Kind is PendingSteering or PendingQueued.
	Kind    string
	Message PendingMessage
}

// PendingMessageRemoved clears the steering message (if its id matches) or
// removes a queued message.
type PendingMessageRemoved struct {
	Kind string
	ID   string
}

// QueuedReordered puts the listed queued ids first (unknown and duplicate
// ids ignored), keeping the rest in their original order.
type QueuedReordered struct {
	Order []string
}

// ActivityChanged sets the activity line.
type ActivityChanged struct {
	Activity string
}

func (MessageStart) isAction()            {}
func (BlockStart) isAction()              {}
func (BlockDelta) isAction()              {}
func (BlockEnd) isAction()                {}
func (MessageEnd) isAction()              {}
func (MessageSnapshot) isAction()         {}
func (SessionEnd) isAction()              {}
func (UserMessage) isAction()             {}
func (Error) isAction()                   {}
func (ToolCallStart) isAction()           {}
func (ToolCallDelta) isAction()           {}
func (ToolCallReady) isAction()           {}
func (ToolCallConfirmed) isAction()       {}
func (ToolResult) isAction()              {}
func (ToolCallResultConfirmed) isAction() {}
func (ToolCallContentChanged) isAction()  {}
func (ToolCallAuthRequired) isAction()    {}
func (ToolCallAuthResolved) isAction()    {}
func (UsageChanged) isAction()            {}
func (InputRequested) isAction()          {}
func (InputAnswered) isAction()           {}
func (InputCompleted) isAction()          {}
func (Restore) isAction()                 {}
func (HistoryLoaded) isAction()           {}
func (Truncate) isAction()                {}
func (MessageResume) isAction()           {}
func (PendingMessageSet) isAction()       {}
func (PendingMessageRemoved) isAction()   {}
func (QueuedReordered) isAction()         {}
func (ActivityChanged) isAction()         {}
