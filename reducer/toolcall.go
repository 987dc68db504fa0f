package reducer

import (
	"encoding/json"
	"github.com/ahptui/ahptui/internal/textbuf"

	"github.com/ahptui/ahptui/ahpwire"
)

// ToolStatus is a tool call's state (AHP ToolCallState.status).
type ToolStatus string

// Tool call statuses (PROTOCOL.md Part B §6.3, §7).
const (
	ToolStreaming                 ToolStatus = "streaming"
	ToolPendingConfirmation       ToolStatus = "pending-confirmation"
	ToolRunning                   ToolStatus = "running"
	ToolAuthRequired              ToolStatus = "auth-required"
	ToolPendingResultConfirmation ToolStatus = "pending-result-confirmation"
	ToolCompleted                 ToolStatus = "completed"
	ToolCancelled                 ToolStatus = "cancelled"
)

// Terminal reports whether s is completed or cancelled.
func (s ToolStatus) Terminal() bool { return s == ToolCompleted || s == ToolCancelled }

// NeedsUser reports whether s waits for the user (approval, result review
// or authentication).
func (s ToolStatus) NeedsUser() bool {
	return s == ToolPendingConfirmation || s == ToolPendingResultConfirmation || s == ToolAuthRequired
}

// Cancel reasons (ToolCall.CancelReason).
const (
	CancelDenied       = "denied"
	CancelSkipped      = "skipped"
	CancelResultDenied = "result-denied"
)

// Confirmation reasons (ToolCall.Confirmed).
const (
	ConfirmedNotNeeded  = "not-needed"
	ConfirmedUserAction = "user-action"
	ConfirmedSetting    = "setting"
)

// ToolCall is the payload of a KindToolCall block. Which fields are set
// depends on Status, as in AHP's ToolCallState.
type ToolCall struct {
	// ID is the toolCallId.
	ID string
	// Status is the current state.
	Status ToolStatus
	// ToolName is the machine name, DisplayName the human one.
	ToolName    string
	DisplayName string
	// Intention is an optional one-line purpose.
	Intention string
	// Contributor is who provides the tool (nil = the server).
	Contributor *Contributor

	// InvocationMessage describes the call ("Run `ls`"); nil only while
	// streaming without one.
	InvocationMessage *Rich
	// Input is the final tool input (all states except streaming).
	Input   *ToolInput
	partial textbuf.Text // streamed partial input (streaming only)

	// Confirmation (pending-confirmation).
	ConfirmationTitle *Rich
	Risk              *Risk
	// Edits are proposed file edits shown for approval (nil = none given).
	Edits    []FileEdit
	Editable *bool
	// Options are the approval choices in display order (nil = plain
	// approve/deny).
	Options []ConfirmOption

	// Confirmed says how the call was approved ("not-needed",
	// "user-action", "setting"); set from running on.
	Confirmed string
	// SelectedOption is the option the approval or denial chose.
	SelectedOption *ConfirmOption

	// Auth is the pending MCP authentication (auth-required).
	Auth *AuthRequirement

	// Content is live output while running/auth-required and the result
	// content once pending-result-confirmation or completed.
	Content []ToolContent
	// Result is set in pending-result-confirmation and completed.
	Result *ToolOutcome

	// Cancellation (cancelled): CancelReason is "denied", "skipped" or
	// "result-denied".
	CancelReason   string
	ReasonMessage  *Rich
	UserSuggestion string

	// Meta is the tool call's `_meta` (kept raw).
	Meta map[string]json.RawMessage
}

// PartialInput returns the streamed input so far (streaming state).
func (t *ToolCall) PartialInput() string { return t.partial.String() }

// Contributor identifies who provides a tool.
type Contributor struct {
	// Kind is "client" or "mcp".
	Kind            string
	ClientID        string
	CustomizationID string
}

// ToolInput is a tool's input: inline text, or a reference to fetch.
type ToolInput struct {
	Text string
	Ref  *ContentRef
}

// Risk is a confirmation risk assessment.
type Risk struct {
	// Kind is the assessor kind ("judge").
	Kind string
	// Status is "loading" or "complete".
	Status string
	Reason *Rich
	// Safety is 0..1 (1 = safe); nil if not given.
	Safety *float64
}

// ConfirmOption is one approval choice.
type ConfirmOption struct {
	ID    string
	Label string
	// Kind is "approve" or "deny".
	Kind string
	// Group separates clusters of options (nil = ungrouped).
	Group *int
}

// AuthRequirement is a pending MCP authentication.
type AuthRequirement struct {
	Reason      string
	Resource    string
	Scopes      []string
	Description string
}

// ToolOutcome is a tool call's result apart from its content (which lives
// in ToolCall.Content).
type ToolOutcome struct {
	Success bool
	// PastTenseMessage describes what happened ("Ran `ls`").
	PastTenseMessage Rich
	// Structured is optional structured output, kept raw.
	Structured json.RawMessage
	// ErrorMessage and ErrorCode describe a failure.
	ErrorMessage string
	ErrorCode    string
}

// Tool result content types (ToolContent.Type): the wire values.
const (
	ContentText             = ahpwire.ContentText
	ContentEmbeddedResource = ahpwire.ContentEmbeddedResource
	ContentResource         = ahpwire.ContentResource
	ContentFileEdit         = ahpwire.ContentFileEdit
	ContentTerminal         = ahpwire.ContentTerminal
	ContentSubagent         = ahpwire.ContentSubagent
)

// ToolContent is one item of tool output; a flat union by Type. Unknown
// types keep Raw and should be skipped by renderers.
type ToolContent struct {
	Type string
	// Text is the text of a text item.
	Text string
	// Data (base64) and ContentType describe an embedded resource;
	// ContentType also applies to resource links.
	Data        string
	ContentType string
	// URI is a resource link; SizeHint its size (-1 unknown).
	URI      string
	SizeHint int64
	// Edit is a file edit.
	Edit *FileEdit
	// Terminal is a terminal run.
	Terminal *TerminalOutput
	// Subagent links to a worker chat.
	Subagent *SubagentLink
	// Raw keeps an unknown item verbatim.
	Raw json.RawMessage
}

// FileEdit is a file modification (a result item or a proposed edit).
type FileEdit struct {
	// BeforeURI / AfterURI name the file before and after (one may be empty
	// for creations and deletions).
	BeforeURI string
	AfterURI  string
	// BeforeContent / AfterContent reference the contents to diff.
	BeforeContent *ContentRef
	AfterContent  *ContentRef
	// Added / Removed are diff line counts (-1 unknown).
	Added   int64
	Removed int64
}

// Path returns the file the edit is about (after, else before).
func (e *FileEdit) Path() string {
	if e.AfterURI != "" {
		return e.AfterURI
	}
	return e.BeforeURI
}

// TerminalOutput is a terminal result item.
type TerminalOutput struct {
	// Resource is the ahp-terminal: URI with the full output.
	Resource string
	Title    string
	IsPty    bool
	// Output is the output preview.
	Output    string
	Truncated bool
	// ExitCode is nil while unknown.
	ExitCode *int
}

// SubagentLink points at a sub-agent's chat.
type SubagentLink struct {
	// Resource is the worker chat URI.
	Resource    string
	Title       string
	AgentName   string
	Description string
}
