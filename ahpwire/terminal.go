package ahpwire

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/internal/textbuf"
)

// Channel schemes of the terminal and changeset channels.
const (
	TerminalScheme  = "ahp-terminal:"
	ChangesetScheme = "ahp-changeset:"
)

// Terminal claim kinds (TerminalClaimKind).
const (
	ClaimClient  = "client"
	ClaimSession = "session"
)

// Terminal content part types (TerminalContentPart.type).
const (
	TerminalPartUnclassified = "unclassified"
	TerminalPartCommand      = "command"
)

// TerminalClaim says who holds a terminal: {kind:"client", clientId} or
// {kind:"session", session, turnId?, toolCallId?} (a flat union by Kind).
type TerminalClaim struct {
	Kind       string `json:"kind"`
	ClientID   string `json:"clientId,omitempty"`
	Session    string `json:"session,omitempty"`
	TurnID     string `json:"turnId,omitempty"`
	ToolCallID string `json:"toolCallId,omitempty"`
}

// TerminalInfo is the lightweight terminal entry of RootState.terminals.
type TerminalInfo struct {
	Resource string        `json:"resource"`
	Title    string        `json:"title"`
	Claim    TerminalClaim `json:"claim"`
	ExitCode *int64        `json:"exitCode,omitempty"`
}

// TerminalState is the state of one `ahp-terminal:` channel.
type TerminalState struct {
	Title                    string                `json:"title"`
	Cwd                      string                `json:"cwd,omitempty"`
	Cols                     *int64                `json:"cols,omitempty"`
	Rows                     *int64                `json:"rows,omitempty"`
	Content                  []TerminalContentPart `json:"content"`
	ExitCode                 *int64                `json:"exitCode,omitempty"`
	Claim                    TerminalClaim         `json:"claim"`
	SupportsCommandDetection *bool                 `json:"supportsCommandDetection,omitempty"`
}

type terminalStateAlias TerminalState

// MarshalJSON writes the state with content always an array.
func (s TerminalState) MarshalJSON() ([]byte, error) {
	if s.Content == nil {
		s.Content = []TerminalContentPart{}
	}
	return json.Marshal(terminalStateAlias(s))
}

// DecodeTerminalState decodes a TerminalState snapshot.
func DecodeTerminalState(raw []byte) (TerminalState, error) {
	var s TerminalState
	if err := json.Unmarshal(raw, &s); err != nil {
		return TerminalState{}, fmt.Errorf("ahpwire: terminal state: %w", err)
	}
	return s, nil
}

// Output returns the raw VT stream of the terminal: every part's text in
// order (the "naive consumer" reconstruction of the specification).
func (s TerminalState) Output() string {
	switch len(s.Content) {
	case 0:
		return ""
	case 1:
		return s.Content[0].Text()
	}
	n := 0
	for _, p := range s.Content {
		n += len(p.Text())
	}
	b := make([]byte, 0, n)
	for _, p := range s.Content {
		b = append(b, p.Text()...)
	}
	return string(b)
}

// TerminalDroppedMarker starts a terminal's content when its oldest output
// was dropped to keep it within a byte cap (ahpstate.MaxTerminalOutputBytes).
const TerminalDroppedMarker = "[… earlier output dropped …]\r\n"

// OutputDropped reports whether the terminal's oldest output was dropped
// (its content starts with TerminalDroppedMarker).
func (s TerminalState) OutputDropped() bool {
	return len(s.Content) > 0 && strings.HasPrefix(s.Content[0].Text(), TerminalDroppedMarker)
}

// TerminalContentPart is one typed part of terminal output: unclassified
// output (Value) or one detected command (CommandID, CommandLine, Output,
// Timestamp, IsComplete, ExitCode, DurationMs). Unknown types keep Raw.
type TerminalContentPart struct {
	Type string
	// unclassified
	Value string
	// command
	CommandID   string
	CommandLine string
	Output      string
	Timestamp   int64
	IsComplete  bool
	ExitCode    *int64
	DurationMs  *int64
	// Raw is the original JSON of an unknown part type.
	Raw json.RawMessage

	text textbuf.Text // append-only text behind Value/Output (see AppendText)
}

// Text returns the part's VT text: Value for unclassified parts, Output
// for commands.
func (p TerminalContentPart) Text() string {
	if p.Type == TerminalPartCommand {
		return p.Output
	}
	return p.Value
}

// AppendText returns p with s appended to its text (Value or Output); p is
// unchanged. Successive appends to the newest version share one buffer,
// so streaming n chunks costs amortised O(len(chunk)) each.
func (p TerminalContentPart) AppendText(s string) TerminalContentPart {
	if s == "" {
		return p
	}
	cur := p.Text()
	t := p.text
	if !t.Views(cur) {
		t = textbuf.New(cur)
	}
	p.text = t.Append(s)
	if p.Type == TerminalPartCommand {
		p.Output = p.text.String()
	} else {
		p.Value = p.text.String()
	}
	return p
}

type terminalUnclassifiedJSON struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type terminalCommandJSON struct {
	Type        string `json:"type"`
	CommandID   string `json:"commandId"`
	CommandLine string `json:"commandLine"`
	Output      string `json:"output"`
	Timestamp   int64  `json:"timestamp"`
	IsComplete  bool   `json:"isComplete"`
	ExitCode    *int64 `json:"exitCode,omitempty"`
	DurationMs  *int64 `json:"durationMs,omitempty"`
}

// MarshalJSON writes the part in its wire shape.
func (p TerminalContentPart) MarshalJSON() ([]byte, error) {
	switch p.Type {
	case TerminalPartUnclassified:
		return json.Marshal(terminalUnclassifiedJSON{p.Type, p.Value})
	case TerminalPartCommand:
		return json.Marshal(terminalCommandJSON{p.Type, p.CommandID, p.CommandLine, p.Output,
			p.Timestamp, p.IsComplete, p.ExitCode, p.DurationMs})
	}
	if len(p.Raw) > 0 {
		return p.Raw, nil
	}
	return json.Marshal(struct {
		Type string `json:"type"`
	}{p.Type})
}

// UnmarshalJSON decodes a part, keeping unknown types verbatim.
func (p *TerminalContentPart) UnmarshalJSON(data []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("ahpwire: terminal content part: %w", err)
	}
	switch head.Type {
	case TerminalPartUnclassified:
		var v terminalUnclassifiedJSON
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("ahpwire: terminal unclassified part: %w", err)
		}
		*p = TerminalContentPart{Type: v.Type, Value: v.Value}
	case TerminalPartCommand:
		var v terminalCommandJSON
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("ahpwire: terminal command part: %w", err)
		}
		*p = TerminalContentPart{Type: v.Type, CommandID: v.CommandID, CommandLine: v.CommandLine,
			Output: v.Output, Timestamp: v.Timestamp, IsComplete: v.IsComplete,
			ExitCode: v.ExitCode, DurationMs: v.DurationMs}
	default:
		*p = TerminalContentPart{Type: head.Type, Raw: append(json.RawMessage(nil), data...)}
	}
	return nil
}
