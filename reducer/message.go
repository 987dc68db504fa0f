package reducer

import "time"

// Role says who authored a message.
type Role uint8

// Message roles.
const (
	// RoleUser is a message that started a turn (usually typed by the user;
	// Origin tells agent-, tool- or automation-originated prompts apart).
	RoleUser Role = iota + 1
	// RoleAssistant is the agent's response to a turn.
	RoleAssistant
)

// String returns "user" or "assistant".
func (r Role) String() string {
	switch r {
	case RoleUser:
		return "user"
	case RoleAssistant:
		return "assistant"
	}
	return "unknown"
}

// MessageStatus is the lifecycle state of a message.
type MessageStatus uint8

// Message statuses.
const (
	// StatusStreaming: the message is Current and still receiving blocks.
	StatusStreaming MessageStatus = iota
	// StatusComplete: the turn completed normally (also every user message).
	StatusComplete
	// StatusCancelled: the turn was cancelled.
	StatusCancelled
	// StatusError: the turn ended with an error (see its KindError block).
	StatusError
	// StatusInterrupted: the message was force-finalised without a
	// MessageEnd (orphaned by a new MessageStart, or ended by SessionEnd).
	StatusInterrupted
)

// String returns a lower-case name for the status.
func (s MessageStatus) String() string {
	switch s {
	case StatusStreaming:
		return "streaming"
	case StatusComplete:
		return "complete"
	case StatusCancelled:
		return "cancelled"
	case StatusError:
		return "error"
	case StatusInterrupted:
		return "interrupted"
	}
	return "unknown"
}

// Message is one user or assistant message. A Message reachable from a State
// is immutable: the reducer replaces it (copy-on-write) instead of changing
// it, so renderers may keep pointers and cache by (ID, Rev).
type Message struct {
	// ID is unique in the transcript. Assistant messages use the AHP turn
	// id; user messages use UserMessageID(turnID).
	ID string
	// TurnID is the AHP turn this message belongs to ("" if none).
	TurnID string
	// Role is RoleUser or RoleAssistant.
	Role Role
	// Origin is the AHP message origin kind of a user message ("user",
	// "agent", "tool", "automation", "systemNotification"); empty for
	// assistant messages.
	Origin string
	// Attachments lists the user message's attachments by label and type.
	Attachments []Attachment
	// Blocks are the message's content in order. A user message has one
	// KindText block holding its text.
	Blocks Blocks
	// StartedAt is when the turn started (zero if unknown).
	StartedAt time.Time
	// Duration is the turn's duration as reported at its end (0 if unknown
	// or still streaming).
	Duration time.Duration
	// Usage is the turn's token usage, nil if none was reported.
	Usage *Usage
	// Status is StatusStreaming while the message is Current.
	Status MessageStatus
	// Rev changes whenever the message or one of its blocks changes.
	Rev uint64
}

// UserMessageID returns the message id used for the user message of a turn.
func UserMessageID(turnID string) string { return turnID + "/user" }

// Open reports whether the message is still streaming.
func (m *Message) Open() bool { return m.Status == StatusStreaming }

// Text returns the concatenated text of the message's KindText blocks.
func (m *Message) Text() string {
	var n int
	for _, b := range m.Blocks.All() {
		if b.Kind == KindText {
			n += b.text.Len()
		}
	}
	buf := make([]byte, 0, n)
	for _, b := range m.Blocks.All() {
		if b.Kind == KindText {
			buf = append(buf, b.text.String()...)
		}
	}
	return string(buf)
}

// Block returns the first block whose ID is id, or nil.
func (m *Message) Block(id string) *Block {
	if i := m.blockIndex(id); i >= 0 {
		return m.Blocks.At(i)
	}
	return nil
}

// blockIndex returns the index of the first block with the given ID, or -1.
func (m *Message) blockIndex(id string) int {
	for i, b := range m.Blocks.All() {
		if b.ID == id {
			return i
		}
	}
	return -1
}

// Attachment is a user-message attachment as the transcript shows it.
type Attachment struct {
	// Type is the AHP attachment type ("simple", "resource", ...).
	Type string
	// Label is the display label.
	Label string
	// URI is the resource URI for resource/chat/annotations attachments.
	URI string
}

// Usage is token usage of a turn (or the sum over turns in State.Totals).
type Usage struct {
	InputTokens     int64
	OutputTokens    int64
	CacheReadTokens int64
	// Model is the model that produced the turn (empty in totals).
	Model string
}

// add returns u plus o (Model is not summed).
func (u Usage) add(o Usage) Usage {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	return u
}
