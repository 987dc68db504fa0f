package ahpwire

import "encoding/json"

// Message origin kinds (MessageKind).
const (
	MessageKindUser               = "user"
	MessageKindAgent              = "agent"
	MessageKindTool               = "tool"
	MessageKindAutomation         = "automation"
	MessageKindSystemNotification = "systemNotification"
)

// MessageOrigin says who produced a message.
type MessageOrigin struct {
	Kind string `json:"kind"`
}

// ModelSelection picks a model and its config values.
type ModelSelection struct {
	ID     string                     `json:"id"`
	Config map[string]json.RawMessage `json:"config,omitempty"`
}

// AgentSelection picks a custom agent.
type AgentSelection struct {
	URI string `json:"uri"`
}

// Message attachment types (MessageAttachmentKind).
const (
	AttachmentSimple           = "simple"
	AttachmentEmbeddedResource = "embeddedResource"
	AttachmentResource         = "resource"
	AttachmentAnnotations      = "annotations"
	AttachmentChat             = "chat"
)

// MessageAttachment is one attachment; a flat union discriminated by Type
// (only the fields of that variant are set).
type MessageAttachment struct {
	Type        string     `json:"type"`
	Label       string     `json:"label"`
	Range       *TextRange `json:"range,omitempty"`
	DisplayKind string     `json:"displayKind,omitempty"`
	// simple
	ModelRepresentation string `json:"modelRepresentation,omitempty"`
	// embeddedResource
	Data        string `json:"data,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	// resource (ContentRef fields)
	URI       string         `json:"uri,omitempty"`
	SizeHint  *int64         `json:"sizeHint,omitempty"`
	Nonce     string         `json:"nonce,omitempty"`
	Selection *TextSelection `json:"selection,omitempty"`
	// annotations, chat
	Resource      string   `json:"resource,omitempty"`
	AnnotationIDs []string `json:"annotationIds,omitempty"`
	EndTurn       string   `json:"endTurn,omitempty"`
	Meta          Meta     `json:"_meta,omitempty"`
}

// ChatMessage is an AHP Message: it initiates or steers a turn (named
// ChatMessage because Message is the JSON-RPC envelope).
type ChatMessage struct {
	Text        string              `json:"text"`
	Origin      MessageOrigin       `json:"origin"`
	Attachments []MessageAttachment `json:"attachments,omitempty"`
	Model       *ModelSelection     `json:"model,omitempty"`
	Agent       *AgentSelection     `json:"agent,omitempty"`
	Meta        Meta                `json:"_meta,omitempty"`
}

// UserMessage returns a plain user message with the given text.
func UserMessage(text string) ChatMessage {
	return ChatMessage{Text: text, Origin: MessageOrigin{Kind: MessageKindUser}}
}

// Pending message kinds.
const (
	PendingSteering = "steering"
	PendingQueued   = "queued"
)

// PendingMessage is a steering or queued message.
type PendingMessage struct {
	ID      string      `json:"id"`
	Message ChatMessage `json:"message"`
}
