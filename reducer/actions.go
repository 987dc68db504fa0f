package reducer

import (
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/textbuf"
)

// Action is one lifecycle action. The set is closed (sealed by an
// unexported method). Actions are values and are not modified by Reduce;
// pointers and slices inside them (including the ahpwire payloads) become
// shared with the resulting State and must not be changed afterwards.
//
// The actions say what happened to the transcript, never why: which AHP
// transitions are legal is decided by package ahpstate, and Derive turns
// its result into these actions.
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

// BlockStart appends a block to Current (BLOCK_START) with the payload of
// its Kind: Text for text, thinking and system notifications, Tool for a
// tool call, Input (and Response) for an input request, Err for an error,
// Ref for a content reference, Unknown for an unknown part. Text and
// thinking start open, a tool call stays open until it is terminal, an input
// request until it has a response; every other kind is closed at once. A
// payload missing for its kind makes the action ignored.
type BlockStart struct {
	// MessageID must name Current.
	MessageID string
	// BlockID is the block's id ("" for parts without one); tool calls and
	// input requests use their own id.
	BlockID string
	Kind    BlockKind
	// Text is the initial content (text, thinking, system notification).
	Text string
	// text, when set, is Text as the AHP part's append-only buffer (shared
	// instead of copied); set by Derive and Project.
	text textbuf.Text
	// Markdown marks system-notification content as markdown.
	Markdown bool
	// Redacted marks withheld thinking.
	Redacted bool
	// Tool is the AHP tool-call state (shared, never modified).
	Tool *ahpwire.ToolCallState
	// Input is the AHP input request (shared, never modified); Response is
	// its response ("" while open).
	Input    *ahpwire.ChatInputRequest
	Response string
	// Err is an error block's payload.
	Err *ErrorInfo
	// Ref is a content reference (shared, never modified).
	Ref *ahpwire.ContentRef
	// Unknown keeps a part of an unknown kind.
	Unknown *UnknownPart
}

// BlockUpdate replaces block Index of Current with the block its BlockStart
// builds, keeping the Index (BLOCK_UPDATE: a tool call or input request
// moved to a new AHP state). MessageID must name Current.
type BlockUpdate struct {
	Index int
	BlockStart
	// Was is the block before the update, as the BlockStart that built it
	// (set by Derive; zero otherwise): what a consumer presenting changes
	// (ahptui exec) compares with, such as a tool call's status before or
	// a text's content before. Reduce does not read it.
	Was BlockStart
}

// BlockDelta appends text to open text or thinking block Index of Current
// (BLOCK_DELTA). If the block's kind is not Kind, or it is closed, or the
// message is not Current, the delta is ignored and counted.
type BlockDelta struct {
	MessageID string
	Index     int
	// BlockID is the block's id (the AHP part's; set by Derive), for a
	// consumer that names the text it prints. Reduce does not read it.
	BlockID string
	// Kind is KindText or KindThinking.
	Kind  BlockKind
	Delta string
	// text, when set by Derive, is the block's text with Delta appended as
	// the AHP part's buffer: adopted instead of appending a second copy.
	text textbuf.Text
}

// BlockEnd closes block Index of Current (BLOCK_END); its payload is kept.
type BlockEnd struct {
	MessageID string
	Index     int
}

// MessageEnd finalises Current into Messages (MESSAGE_END). Blocks still open
// are closed as by BlockEnd (and counted as forced).
type MessageEnd struct {
	MessageID string
	// Status is StatusComplete, StatusCancelled or StatusError.
	Status MessageStatus
	// Duration is the turn's reported duration (negative values clamp to 0).
	Duration time.Duration
	// Reported says the host reported Duration (set by Derive; a turn
	// without one has Duration 0 and Reported false).
	Reported bool
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

// UsageChanged replaces Current's usage.
type UsageChanged struct {
	MessageID string
	Usage     Usage
	// Info is AHP's usage payload it came from (set by Derive; shared,
	// never modified), for a consumer that reports it as the host sent it.
	Info *ahpwire.UsageInfo
}

// Restore replaces the whole transcript (RESTORE, history): Messages
// become the finished messages, Current is cleared, pending messages are
// replaced, Ended/LastError/Stats are kept. Messages must be finished and
// well-formed (non-nil, known role, non-empty id, blocks with payloads for
// their kinds); otherwise the restore is rejected and counted.
type Restore struct {
	Messages []*Message
	Steering *PendingMessage
	Queued   []PendingMessage
}

// HistoryLoaded prepends older finished messages (AHP chat/turnsLoaded).
// Invalid shapes are rejected as for Restore.
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

// MessageResume reopens the last finished message as Current when it is the
// assistant message of TurnID (AHP chat/turnResume). Its text and thinking
// blocks, non-terminal tool calls and unanswered input requests become open
// again.
type MessageResume struct {
	TurnID string
}

// PendingChanged replaces the steering message and the queued messages.
type PendingChanged struct {
	Steering *PendingMessage
	Queued   []PendingMessage
}

// MessageReplaced replaces the finished message with the same ID by
// Message (a finished, well-formed message; see AdoptRefTurn): the host's
// copy of a finished turn that shows the same content in another form,
// such as a long text as content references. A message that is not
// finished, is invalid, or names no finished message is ignored and
// counted.
type MessageReplaced struct {
	Message *Message
}

// ActivityChanged sets the activity line.
type ActivityChanged struct {
	Activity string
}

func (MessageStart) isAction()    {}
func (BlockStart) isAction()      {}
func (BlockUpdate) isAction()     {}
func (BlockDelta) isAction()      {}
func (BlockEnd) isAction()        {}
func (MessageEnd) isAction()      {}
func (MessageSnapshot) isAction() {}
func (SessionEnd) isAction()      {}
func (UserMessage) isAction()     {}
func (Error) isAction()           {}
func (UsageChanged) isAction()    {}
func (Restore) isAction()         {}
func (HistoryLoaded) isAction()   {}
func (Truncate) isAction()        {}
func (MessageResume) isAction()   {}
func (PendingChanged) isAction()  {}
func (ActivityChanged) isAction() {}
func (MessageReplaced) isAction() {}
