package ahpwire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Well-known channel URIs and schemes.
const (
	RootURI       = "ahp-root://"
	SessionScheme = "ahp-session:"
	ChatScheme    = "ahp-chat:"
)

// Meta is an `_meta` extension object; values are kept raw.
type Meta = map[string]json.RawMessage

// StringOrMarkdown is `string | {"markdown": string}`: plain text when
// Markdown is false, markdown otherwise. The zero value is the empty string.
type StringOrMarkdown struct {
	Text     string
	Markdown bool
}

// Plain returns a plain-text StringOrMarkdown.
func Plain(s string) StringOrMarkdown { return StringOrMarkdown{Text: s} }

// MarkdownText returns a markdown StringOrMarkdown.
func MarkdownText(s string) StringOrMarkdown { return StringOrMarkdown{Text: s, Markdown: true} }

// PlainPtr returns a pointer to a plain-text StringOrMarkdown.
func PlainPtr(s string) *StringOrMarkdown { v := Plain(s); return &v }

// String returns the text regardless of form.
func (s StringOrMarkdown) String() string { return s.Text }

// MarshalJSON writes a JSON string or {"markdown": ...}.
func (s StringOrMarkdown) MarshalJSON() ([]byte, error) {
	if s.Markdown {
		return json.Marshal(struct {
			Markdown string `json:"markdown"`
		}{s.Text})
	}
	return json.Marshal(s.Text)
}

// UnmarshalJSON accepts a string or an object with a "markdown" string.
func (s *StringOrMarkdown) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		s.Markdown = false
		return json.Unmarshal(data, &s.Text)
	}
	var o struct {
		Markdown *string `json:"markdown"`
	}
	if err := json.Unmarshal(data, &o); err != nil {
		return fmt.Errorf("ahpwire: StringOrMarkdown: %w", err)
	}
	if o.Markdown == nil {
		return fmt.Errorf("ahpwire: StringOrMarkdown object without markdown")
	}
	*s = StringOrMarkdown{Text: *o.Markdown, Markdown: true}
	return nil
}

// Timestamp is an ISO-8601 timestamp string. Old hosts (and some fixtures)
// send epoch-millisecond numbers instead; those are kept as their decimal
// text and re-encoded as numbers.
type Timestamp string

// MarshalJSON writes the timestamp; all-digit values are written as numbers.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	if isDecimal(string(t)) {
		return []byte(t), nil
	}
	return json.Marshal(string(t))
}

// UnmarshalJSON accepts a string or a JSON number.
func (t *Timestamp) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return fmt.Errorf("ahpwire: timestamp: %w", err)
		}
		*t = Timestamp(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(data, &n); err != nil {
		return fmt.Errorf("ahpwire: timestamp: %w", err)
	}
	*t = Timestamp(n.String())
	return nil
}

func isDecimal(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && !(i == 0 && c == '-' && len(s) > 1) {
			return false
		}
	}
	return true
}

// ErrorInfo describes an error (ErrorInfo in common/state.ts).
type ErrorInfo struct {
	ErrorType string `json:"errorType"`
	Message   string `json:"message"`
	Stack     string `json:"stack,omitempty"`
	Meta      Meta   `json:"_meta,omitempty"`
}

// UsageInfo is token usage for a turn.
type UsageInfo struct {
	InputTokens     *int64 `json:"inputTokens,omitempty"`
	OutputTokens    *int64 `json:"outputTokens,omitempty"`
	Model           string `json:"model,omitempty"`
	CacheReadTokens *int64 `json:"cacheReadTokens,omitempty"`
	Meta            Meta   `json:"_meta,omitempty"`
}

// ContentRef references content stored outside the state tree.
type ContentRef struct {
	URI         string `json:"uri"`
	SizeHint    *int64 `json:"sizeHint,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	Nonce       string `json:"nonce,omitempty"`
}

// TextPosition is a zero-based line/character position.
type TextPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// TextRange is a range in a text document.
type TextRange struct {
	Start TextPosition `json:"start"`
	End   TextPosition `json:"end"`
}

// TextSelection is a selection within a textual resource.
type TextSelection struct {
	Range TextRange `json:"range"`
}

// FileEditSide is one side (before/after) of a file edit.
type FileEditSide struct {
	URI     string     `json:"uri"`
	Content ContentRef `json:"content"`
}

// FileEditDiffStats holds diff display counters.
type FileEditDiffStats struct {
	Added   *int64 `json:"added,omitempty"`
	Removed *int64 `json:"removed,omitempty"`
}

// FileEdit describes a file modification.
type FileEdit struct {
	Before *FileEditSide      `json:"before,omitempty"`
	After  *FileEditSide      `json:"after,omitempty"`
	Diff   *FileEditDiffStats `json:"diff,omitempty"`
}

// FileEditCollection wraps a list of file edits ({items}).
type FileEditCollection struct {
	Items []FileEdit `json:"items"`
}

// ProtectedResourceMetadata is RFC 9728 metadata (snake_case keys) plus the
// AHP `required` extension.
type ProtectedResourceMetadata struct {
	Resource                          string   `json:"resource"`
	ResourceName                      string   `json:"resource_name,omitempty"`
	AuthorizationServers              []string `json:"authorization_servers,omitempty"`
	JWKSURI                           string   `json:"jwks_uri,omitempty"`
	ScopesSupported                   []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported            []string `json:"bearer_methods_supported,omitempty"`
	ResourceSigningAlgValuesSupported []string `json:"resource_signing_alg_values_supported,omitempty"`
	ResourceDocumentation             string   `json:"resource_documentation,omitempty"`
	ResourcePolicyURI                 string   `json:"resource_policy_uri,omitempty"`
	ResourceTOSURI                    string   `json:"resource_tos_uri,omitempty"`
	Required                          *bool    `json:"required,omitempty"`
}

// Implementation identifies a client or server. Besides name, version and
// title it carries the optional members of the MCP-style identity the
// protocol borrows (description, websiteUrl, icons, _meta), so a host's
// identity survives a client's decode and re-encode whole.
type Implementation struct {
	Name        string          `json:"name"`
	Version     string          `json:"version,omitempty"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	WebsiteURL  string          `json:"websiteUrl,omitempty"`
	Icons       json.RawMessage `json:"icons,omitempty"`
	Meta        Meta            `json:"_meta,omitempty"`
}

// ConfigState is a {schema, values} pair used by root and session config.
// The schema is kept raw.
type ConfigState struct {
	Schema json.RawMessage            `json:"schema,omitempty"`
	Values map[string]json.RawMessage `json:"values"`
}

// Snapshot is a point-in-time state of a subscribed channel. State is kept
// raw; decode it with DecodeRootState, DecodeSessionState or DecodeChatState
// according to the Resource scheme.
type Snapshot struct {
	Resource string          `json:"resource"`
	State    json.RawMessage `json:"state"`
	FromSeq  uint64          `json:"fromSeq"`
}

// NewSnapshot marshals state into a Snapshot.
func NewSnapshot(resource string, state any, fromSeq uint64) (Snapshot, error) {
	var b []byte
	var err error
	switch s := state.(type) {
	case ChatState: // writes valid, compact JSON itself: json.Marshal would only scan it again
		b, err = s.MarshalJSON()
	case *ChatState:
		b = []byte("null")
		if s != nil {
			b, err = s.MarshalJSON()
		}
	default:
		b, err = json.Marshal(state)
	}
	if err != nil {
		return Snapshot{}, fmt.Errorf("ahpwire: snapshot %s: %w", resource, err)
	}
	return Snapshot{Resource: resource, State: b, FromSeq: fromSeq}, nil
}
