package ahpwire

import (
	"encoding/json"
	"fmt"
)

// Turn end states (TurnState).
const (
	TurnComplete  = "complete"
	TurnCancelled = "cancelled"
	TurnError     = "error"
)

// Chat interactivity values.
const (
	InteractivityFull     = "full"
	InteractivityReadOnly = "read-only"
	InteractivityHidden   = "hidden"
)

// Turn is a completed request/response cycle. Error is the 0.5-era
// `Turn.error` (newer hosts put an error response part instead).
type Turn struct {
	ID            string         `json:"id"`
	StartedAt     string         `json:"startedAt,omitempty"`
	Duration      *int64         `json:"duration,omitempty"`
	Message       ChatMessage    `json:"message"`
	ResponseParts []ResponsePart `json:"responseParts"`
	Usage         *UsageInfo     `json:"usage,omitempty"`
	State         string         `json:"state"`
	Error         *ErrorInfo     `json:"error,omitempty"`
}

// ActiveTurn is the in-progress turn. Its ResponseParts are a persistent
// list (Parts), so a reducer changes one part of a long turn without
// copying the others; they encode as the same array as Turn's.
type ActiveTurn struct {
	ID            string      `json:"id"`
	StartedAt     string      `json:"startedAt,omitempty"`
	Message       ChatMessage `json:"message"`
	ResponseParts Parts       `json:"responseParts"`
	Usage         *UsageInfo  `json:"usage,omitempty"`
}

// SideChatSelection is the selected text captured for a side chat.
type SideChatSelection struct {
	Text           string `json:"text"`
	ResponsePartID string `json:"responsePartId,omitempty"`
}

// Chat origin kinds.
const (
	ChatOriginUser     = "user"
	ChatOriginFork     = "fork"
	ChatOriginSideChat = "sideChat"
	ChatOriginTool     = "tool"
)

// ChatOrigin says how a chat came into existence (flat union by Kind).
type ChatOrigin struct {
	Kind       string             `json:"kind"`
	Chat       string             `json:"chat,omitempty"`
	TurnID     string             `json:"turnId,omitempty"`
	Selection  *SideChatSelection `json:"selection,omitempty"`
	ToolCallID string             `json:"toolCallId,omitempty"`
}

// ChangeStats counts file changes.
type ChangeStats struct {
	Additions *int64 `json:"additions,omitempty"`
	Deletions *int64 `json:"deletions,omitempty"`
	Files     *int64 `json:"files,omitempty"`
}

// Changeset is a catalogue entry for a subscribable changeset view.
type Changeset struct {
	Label       string `json:"label"`
	URITemplate string `json:"uriTemplate"`
	ChangeKind  string `json:"changeKind,omitempty"`
	Description string `json:"description,omitempty"`
	// Capabilities are the changeset's optional capabilities (review).
	Capabilities *ChangesetCapabilities `json:"capabilities,omitempty"`
	Meta         Meta                   `json:"_meta,omitempty"`
}

// BackgroundWork is a shell or subagent running beyond a turn
// (flat union by Kind: "shell" or "subagent"). An entry of another kind
// keeps its members the struct does not model in Extra, so it survives a
// decode/encode unchanged (see background_work.go).
type BackgroundWork struct {
	Kind  string `json:"kind"`
	ID    string `json:"id"`
	Label string `json:"label"`
	// Status is the work's state, e.g. "running" (1.0).
	Status    string `json:"status,omitempty"`
	StartedAt string `json:"startedAt"`
	Command   string `json:"command,omitempty"`
	Terminal  string `json:"terminal,omitempty"`
	Chat      string `json:"chat,omitempty"`
	// Extra holds the members of an unknown kind that are not fields above.
	Extra map[string]json.RawMessage `json:"-"`
}

// ChatSummary is the catalog entry of a chat in SessionState.chats.
type ChatSummary struct {
	Resource           string        `json:"resource"`
	Title              string        `json:"title"`
	Description        string        `json:"description,omitempty"`
	Status             SessionStatus `json:"status"`
	Activity           string        `json:"activity,omitempty"`
	ModifiedAt         Timestamp     `json:"modifiedAt"`
	Changes            *ChangeStats  `json:"changes,omitempty"`
	Origin             *ChatOrigin   `json:"origin,omitempty"`
	ParentChat         string        `json:"parentChat,omitempty"`
	Movable            *bool         `json:"movable,omitempty"`
	Interactivity      string        `json:"interactivity,omitempty"`
	WorkingDirectories []string      `json:"workingDirectories,omitzero"`
	// BackgroundWork mirrors ChatState.backgroundWork in the catalog (1.0).
	// An explicit empty list (session/chatUpdated clearing it) is kept as [].
	BackgroundWork []BackgroundWork `json:"backgroundWork,omitzero"`
}

// ChatState is the full state of an `ahp-chat:` channel. InputRequests is
// the 0.5-era location of open input requests (newer hosts use
// inputRequest response parts).
type ChatState struct {
	Resource           string             `json:"resource"`
	Title              string             `json:"title"`
	Description        string             `json:"description,omitempty"`
	Status             SessionStatus      `json:"status"`
	Activity           string             `json:"activity,omitempty"`
	ModifiedAt         string             `json:"modifiedAt"`
	Changes            *ChangeStats       `json:"changes,omitempty"`
	Origin             *ChatOrigin        `json:"origin,omitempty"`
	ParentChat         string             `json:"parentChat,omitempty"`
	Movable            *bool              `json:"movable,omitempty"`
	Interactivity      string             `json:"interactivity,omitempty"`
	WorkingDirectories []string           `json:"workingDirectories,omitempty"`
	Changesets         []Changeset        `json:"changesets,omitempty"`
	BackgroundWork     []BackgroundWork   `json:"backgroundWork,omitempty"`
	Canvases           json.RawMessage    `json:"canvases,omitempty"`
	Turns              []Turn             `json:"turns"`
	TurnsNextCursor    string             `json:"turnsNextCursor,omitempty"`
	ActiveTurn         *ActiveTurn        `json:"activeTurn,omitempty"`
	SteeringMessage    *PendingMessage    `json:"steeringMessage,omitempty"`
	SteeringMessages   []PendingMessage   `json:"steeringMessages,omitempty"`
	QueuedMessages     []PendingMessage   `json:"queuedMessages,omitempty"`
	Draft              *ChatMessage       `json:"draft,omitempty"`
	InputRequests      []ChatInputRequest `json:"inputRequests,omitempty"`
	Meta               Meta               `json:"_meta,omitempty"`
}

// Summary returns the catalog fields of the chat.
func (c *ChatState) Summary() ChatSummary {
	return ChatSummary{
		Resource: c.Resource, Title: c.Title, Description: c.Description,
		Status: c.Status, Activity: c.Activity, ModifiedAt: Timestamp(c.ModifiedAt),
		Changes: c.Changes, Origin: c.Origin, ParentChat: c.ParentChat, Movable: c.Movable,
		Interactivity: c.Interactivity, WorkingDirectories: c.WorkingDirectories,
	}
}

// DecodeChatState decodes a ChatState (e.g. Snapshot.State).
func DecodeChatState(raw []byte) (ChatState, error) {
	var c ChatState
	if err := json.Unmarshal(raw, &c); err != nil {
		return ChatState{}, fmt.Errorf("ahpwire: chat state: %w", err)
	}
	return c, nil
}
