package reducer

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/textbuf"
)

// BlockKind discriminates blocks.
type BlockKind uint8

// Block kinds. The set may grow; renderers skip kinds they do not know.
const (
	// KindText is assistant markdown (AHP "markdown" part) or a user
	// message's text.
	KindText BlockKind = iota + 1
	// KindThinking is reasoning text (AHP "reasoning" part); Redacted marks
	// reasoning whose content is withheld.
	KindThinking
	// KindToolCall is a tool call; see Block.Tool.
	KindToolCall
	// KindError is a turn error; see Block.Err.
	KindError
	// KindInputRequest is a question for the user; see Block.Input.
	KindInputRequest
	// KindSystemNotification is a system notice inside a turn; Text holds
	// it and Markdown says whether it is markdown.
	KindSystemNotification
	// KindContentRef is a reference to content stored elsewhere; see
	// Block.Ref.
	KindContentRef
	// KindUnknown is a response part of a kind this client does not know.
	// It is kept (so ordering and ids stay faithful) and not rendered.
	KindUnknown
)

// String returns a lower-case name for the kind.
func (k BlockKind) String() string {
	switch k {
	case KindText:
		return "text"
	case KindThinking:
		return "thinking"
	case KindToolCall:
		return "toolCall"
	case KindError:
		return "error"
	case KindInputRequest:
		return "inputRequest"
	case KindSystemNotification:
		return "systemNotification"
	case KindContentRef:
		return "contentRef"
	case KindUnknown:
		return "unknown"
	}
	return "invalid"
}

// Block is one piece of a message. Only the payload of its Kind is set. A
// Block reachable from a State is immutable (copy-on-write).
type Block struct {
	// ID is the id actions address the block by: the part id for text and
	// thinking, the toolCallId for tool calls, the request id for input
	// requests, the raw part's "id" for unknown parts, "" otherwise. It is
	// not necessarily unique; use Index for a render key.
	ID string
	// Index is the block's position in its message. Blocks are only ever
	// appended, so Index is stable for the life of the message.
	Index int
	// Kind selects the payload.
	Kind BlockKind
	// Open is true while the block may still change: text and thinking
	// until the turn ends, tool calls until they are terminal, input
	// requests until answered (and never after their message ended).
	// Errors, notifications, content refs and unknown parts are closed from
	// the start.
	Open bool
	// Redacted marks KindThinking whose content is withheld.
	Redacted bool
	// Markdown marks KindSystemNotification content as markdown (plain text
	// otherwise).
	Markdown bool
	// Rev increases on every change of the block (render cache key).
	Rev uint64

	text textbuf.Text // KindText, KindThinking, KindSystemNotification

	// Tool is the KindToolCall payload: the AHP tool-call state, shared
	// with the AHP chat state it was derived from (never modify it).
	Tool *ahpwire.ToolCallState
	// Err is the KindError payload.
	Err *ErrorInfo
	// Input is the KindInputRequest payload: the AHP input request, shared
	// with the AHP chat state (never modify it). Response is its response
	// ("accept", "decline", "cancel"; "" while unanswered).
	Input    *ahpwire.ChatInputRequest
	Response string
	// Ref is the KindContentRef payload (shared, never modify it).
	Ref *ahpwire.ContentRef
	// Unknown is the KindUnknown payload.
	Unknown *UnknownPart
}

// Text returns the block's text (text, thinking and system notification
// blocks) without copying.
func (b *Block) Text() string { return b.text.String() }

// TextLen returns the length of the block's text in bytes.
func (b *Block) TextLen() int { return b.text.Len() }

// ErrorInfo is the payload of an error block (or State.LastError).
type ErrorInfo struct {
	// ErrorType is the machine-readable error class.
	ErrorType string
	// Message is the human-readable message.
	Message string
	// Stack is an optional stack trace.
	Stack string
	// Resumable marks a turn error the user may retry (chat/turnResume).
	Resumable bool
	// Resumed marks a resumable error its turn was resumed after: the
	// reply goes on below it (AHP keeps the part when a turn resumes), so
	// it is no longer one the user may retry.
	Resumed bool
}

// UnknownPart keeps a response part of an unknown kind verbatim.
type UnknownPart struct {
	// Kind is the part's "kind" value.
	Kind string
	// Raw is the part's JSON.
	Raw json.RawMessage
}

// InputOpen reports whether a KindInputRequest block still waits for an
// answer (its request has no response).
func (b *Block) InputOpen() bool { return b.Kind == KindInputRequest && b.Response == "" }
