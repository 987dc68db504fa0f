package ahpwire

import (
	"encoding/json"
	"fmt"
	"github.com/ahptui/ahptui/internal/textbuf"
)

// Tool call statuses (ToolCallStatus).
const (
	ToolStreaming                 = "streaming"
	ToolPendingConfirmation       = "pending-confirmation"
	ToolRunning                   = "running"
	ToolAuthRequired              = "auth-required"
	ToolPendingResultConfirmation = "pending-result-confirmation"
	ToolCompleted                 = "completed"
	ToolCancelled                 = "cancelled"
)

// Confirmation reasons (ToolCallConfirmationReason).
const (
	ConfirmedNotNeeded  = "not-needed"
	ConfirmedUserAction = "user-action"
	ConfirmedSetting    = "setting"
)

// Cancellation reasons (ToolCallCancellationReason).
const (
	CancelDenied       = "denied"
	CancelSkipped      = "skipped"
	CancelResultDenied = "result-denied"
)

// KnownToolStatus reports whether s is a tool-call status this package knows.
func KnownToolStatus(s string) bool {
	switch s {
	case ToolStreaming, ToolPendingConfirmation, ToolRunning, ToolAuthRequired,
		ToolPendingResultConfirmation, ToolCompleted, ToolCancelled:
		return true
	}
	return false
}

// ConfirmationOption is a server-offered confirmation choice.
type ConfirmationOption struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Kind  string `json:"kind"` // "approve" | "deny"
	Group *int   `json:"group,omitempty"`
}

// ToolCallContributor identifies who implements a tool:
// {kind:"client", clientId} or {kind:"mcp", customizationId}.
type ToolCallContributor struct {
	Kind            string `json:"kind"`
	ClientID        string `json:"clientId,omitempty"`
	CustomizationID string `json:"customizationId,omitempty"`
}

// ToolCallRiskAssessment is a model-judge assessment
// ({kind:"judge", status:"loading"|"complete", reason?, safety?}).
type ToolCallRiskAssessment struct {
	Kind   string            `json:"kind"`
	Status string            `json:"status"`
	Reason *StringOrMarkdown `json:"reason,omitempty"`
	Safety *float64          `json:"safety,omitempty"`
}

// McpAuthRequirement is the auth challenge of an auth-required tool call.
type McpAuthRequirement struct {
	Reason         string                    `json:"reason"`
	Resource       ProtectedResourceMetadata `json:"resource"`
	RequiredScopes []string                  `json:"requiredScopes,omitempty"`
	Description    string                    `json:"description,omitempty"`
	OAuthClient    json.RawMessage           `json:"oauthClient,omitempty"`
}

// ToolError is the error of a failed tool result.
type ToolError struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// ToolCallResult is a tool execution result (flattened into completed and
// pending-result-confirmation states on the wire).
type ToolCallResult struct {
	Success           bool                `json:"success"`
	PastTenseMessage  StringOrMarkdown    `json:"pastTenseMessage"`
	Content           []ToolResultContent `json:"content,omitempty"`
	StructuredContent json.RawMessage     `json:"structuredContent,omitempty"`
	Error             *ToolError          `json:"error,omitempty"`
}

// ToolInput is `string | ContentRef`: inline text when Ref is nil.
type ToolInput struct {
	Text string
	Ref  *ContentRef
}

// MarshalJSON writes a string or a ContentRef object.
func (t ToolInput) MarshalJSON() ([]byte, error) {
	if t.Ref != nil {
		return json.Marshal(t.Ref)
	}
	return json.Marshal(t.Text)
}

// UnmarshalJSON accepts a string or a ContentRef object.
func (t *ToolInput) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*t = ToolInput{Text: s}
		return nil
	}
	var r ContentRef
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("ahpwire: toolInput: %w", err)
	}
	*t = ToolInput{Ref: &r}
	return nil
}

// InlineInput returns a pointer to an inline ToolInput.
func InlineInput(s string) *ToolInput { return &ToolInput{Text: s} }

// ToolCallState is the lifecycle state of one tool call: a flat union
// discriminated by Status; only fields valid for that status are set.
// Unknown statuses are kept verbatim in Raw and re-encoded unchanged.
type ToolCallState struct {
	Status      string               `json:"status"`
	ToolCallID  string               `json:"toolCallId"`
	ToolName    string               `json:"toolName"`
	DisplayName string               `json:"displayName"`
	Intention   string               `json:"intention,omitempty"`
	Contributor *ToolCallContributor `json:"contributor,omitempty"`
	Meta        Meta                 `json:"_meta,omitempty"`

	// streaming
	PartialInput *string `json:"partialInput,omitempty"`

	// parameter fields (all but streaming; streaming may carry invocationMessage)
	InvocationMessage *StringOrMarkdown `json:"invocationMessage,omitempty"`
	ToolInput         *ToolInput        `json:"toolInput,omitempty"`

	// pending-confirmation
	ConfirmationTitle *StringOrMarkdown       `json:"confirmationTitle,omitempty"`
	RiskAssessment    *ToolCallRiskAssessment `json:"riskAssessment,omitempty"`
	Edits             *FileEditCollection     `json:"edits,omitempty"`
	Editable          *bool                   `json:"editable,omitempty"`
	Options           []ConfirmationOption    `json:"options,omitempty"`

	// post-confirmation (running, auth-required, pending-result-confirmation, completed)
	Confirmed      string              `json:"confirmed,omitempty"`
	SelectedOption *ConfirmationOption `json:"selectedOption,omitempty"`

	// auth-required
	Auth *McpAuthRequirement `json:"auth,omitempty"`

	// result fields (pending-result-confirmation, completed); Content also
	// carries live output while running / auth-required.
	Success           *bool               `json:"success,omitempty"`
	PastTenseMessage  *StringOrMarkdown   `json:"pastTenseMessage,omitempty"`
	Content           []ToolResultContent `json:"content,omitempty"`
	StructuredContent json.RawMessage     `json:"structuredContent,omitempty"`
	Error             *ToolError          `json:"error,omitempty"`

	// cancelled
	Reason         string            `json:"reason,omitempty"`
	ReasonMessage  *StringOrMarkdown `json:"reasonMessage,omitempty"`
	UserSuggestion *ChatMessage      `json:"userSuggestion,omitempty"`

	// Raw holds the original JSON of a tool call whose status is unknown.
	Raw json.RawMessage `json:"-"`

	// partial is the append-only text PartialInput may view (see
	// AppendPartialInput); empty for states built or decoded otherwise.
	partial textbuf.Text
}

type toolCallAlias ToolCallState

// MarshalJSON writes the state; an unknown status with Raw set is written
// verbatim.
func (t ToolCallState) MarshalJSON() ([]byte, error) {
	if len(t.Raw) > 0 && !KnownToolStatus(t.Status) {
		return t.Raw, nil
	}
	return json.Marshal(toolCallAlias(t))
}

// UnmarshalJSON decodes the state, keeping the raw JSON for unknown statuses.
func (t *ToolCallState) UnmarshalJSON(data []byte) error {
	var a toolCallAlias
	if err := json.Unmarshal(data, &a); err != nil {
		return fmt.Errorf("ahpwire: tool call state: %w", err)
	}
	*t = ToolCallState(a)
	if !KnownToolStatus(t.Status) {
		t.Raw = append(json.RawMessage(nil), data...)
	}
	return nil
}

// IsTerminal reports whether the tool call is completed or cancelled.
func (t *ToolCallState) IsTerminal() bool {
	return t.Status == ToolCompleted || t.Status == ToolCancelled
}

// WaitsForClient reports whether the tool call waits for a client
// (pending-confirmation, pending-result-confirmation or auth-required).
func (t *ToolCallState) WaitsForClient() bool {
	switch t.Status {
	case ToolPendingConfirmation, ToolPendingResultConfirmation, ToolAuthRequired:
		return true
	}
	return false
}

// Result returns the result fields as a ToolCallResult (zero when absent).
func (t *ToolCallState) Result() ToolCallResult {
	r := ToolCallResult{Content: t.Content, StructuredContent: t.StructuredContent, Error: t.Error}
	if t.Success != nil {
		r.Success = *t.Success
	}
	if t.PastTenseMessage != nil {
		r.PastTenseMessage = *t.PastTenseMessage
	}
	return r
}

// SetResult copies the result fields of r into t.
func (t *ToolCallState) SetResult(r ToolCallResult) {
	s := r.Success
	p := r.PastTenseMessage
	t.Success = &s
	t.PastTenseMessage = &p
	t.Content = r.Content
	t.StructuredContent = r.StructuredContent
	t.Error = r.Error
}

// Tool result content types (ToolResultContentType).
const (
	ContentText             = "text"
	ContentEmbeddedResource = "embeddedResource"
	ContentResource         = "resource"
	ContentFileEdit         = "fileEdit"
	ContentTerminal         = "terminal"
	ContentSubagent         = "subagent"
)

// TerminalCommandResult is the outcome of a terminal command.
type TerminalCommandResult struct {
	ExitCode  *int   `json:"exitCode,omitempty"`
	Preview   string `json:"preview,omitempty"`
	Truncated *bool  `json:"truncated,omitempty"`
}

// ToolResultContent is one content block of a tool result: a flat union
// discriminated by Type. Unknown types are kept verbatim in Raw.
type ToolResultContent struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// embeddedResource
	Data        string `json:"data,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	// resource (ContentRef)
	URI      string `json:"uri,omitempty"`
	SizeHint *int64 `json:"sizeHint,omitempty"`
	Nonce    string `json:"nonce,omitempty"`
	// fileEdit (FileEdit)
	Before *FileEditSide      `json:"before,omitempty"`
	After  *FileEditSide      `json:"after,omitempty"`
	Diff   *FileEditDiffStats `json:"diff,omitempty"`
	// terminal, subagent
	Resource    string                 `json:"resource,omitempty"`
	Title       string                 `json:"title,omitempty"`
	IsPty       *bool                  `json:"isPty,omitempty"`
	Result      *TerminalCommandResult `json:"result,omitempty"`
	AgentName   string                 `json:"agentName,omitempty"`
	Description string                 `json:"description,omitempty"`

	// Raw holds the original JSON of an unknown content type.
	Raw json.RawMessage `json:"-"`
}

type contentAlias ToolResultContent

func knownContentType(t string) bool {
	switch t {
	case ContentText, ContentEmbeddedResource, ContentResource, ContentFileEdit, ContentTerminal, ContentSubagent:
		return true
	}
	return false
}

// MarshalJSON writes the block; text blocks always carry "text".
func (c ToolResultContent) MarshalJSON() ([]byte, error) {
	if len(c.Raw) > 0 && !knownContentType(c.Type) {
		return c.Raw, nil
	}
	if c.Type == ContentText {
		return json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{c.Type, c.Text})
	}
	return json.Marshal(contentAlias(c))
}

// UnmarshalJSON decodes the block, keeping raw JSON for unknown types.
func (c *ToolResultContent) UnmarshalJSON(data []byte) error {
	var a contentAlias
	if err := json.Unmarshal(data, &a); err != nil {
		return fmt.Errorf("ahpwire: tool result content: %w", err)
	}
	*c = ToolResultContent(a)
	if !knownContentType(c.Type) {
		c.Raw = append(json.RawMessage(nil), data...)
	}
	return nil
}

// TextContent returns a text content block.
func TextContent(s string) ToolResultContent { return ToolResultContent{Type: ContentText, Text: s} }

// Failed reports whether the tool call has a result and it is not a
// success (a result is Success, or the past-tense message agents send
// with it).
func (t ToolCallState) Failed() bool {
	return (t.Success != nil || t.PastTenseMessage != nil) && (t.Success == nil || !*t.Success)
}
