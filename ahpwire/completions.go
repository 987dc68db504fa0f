// Completion and session-config commands (AHP 1.0: `completions` on a chat
// channel; `resolveSessionConfig`, `sessionConfigCompletions` and
// `authenticate` on the root channel).

package ahpwire

import "encoding/json"

// Method names of the composer and session-config commands.
const (
	MethodCompletions              = "completions"
	MethodResolveSessionConfig     = "resolveSessionConfig"
	MethodSessionConfigCompletions = "sessionConfigCompletions"
)

// CompletionKindUserMessage asks for completions of a user message being
// composed (the only kind AHP 1.0 defines).
const CompletionKindUserMessage = "userMessage"

// CompletionsParams is the params of `completions`: Offset is the cursor
// position in Text in UTF-16 code units (0 ≤ Offset ≤ len16(Text)).
type CompletionsParams struct {
	Channel string `json:"channel"`
	Kind    string `json:"kind"`
	Text    string `json:"text"`
	Offset  int    `json:"offset"`
	Meta    Meta   `json:"_meta,omitempty"`
}

// CompletionItem is one suggestion: accepting it replaces
// [RangeStart, RangeEnd) of the input (UTF-16 offsets; the cursor when
// absent) with InsertText and attaches Attachment to the message.
type CompletionItem struct {
	InsertText string            `json:"insertText"`
	RangeStart *int              `json:"rangeStart,omitempty"`
	RangeEnd   *int              `json:"rangeEnd,omitempty"`
	Attachment MessageAttachment `json:"attachment"`
}

// CompletionsResult is the result of `completions`.
type CompletionsResult struct {
	Items []CompletionItem `json:"items"`
}

type completionsResultAlias CompletionsResult

// MarshalJSON writes the result with items always an array.
func (r CompletionsResult) MarshalJSON() ([]byte, error) {
	if r.Items == nil {
		r.Items = []CompletionItem{}
	}
	return json.Marshal(completionsResultAlias(r))
}

// ResolveSessionConfigParams is the params of `resolveSessionConfig`
// (channel ahp-root://): the draft a session would be created with.
type ResolveSessionConfigParams struct {
	Channel          string                     `json:"channel"`
	Provider         string                     `json:"provider,omitempty"`
	WorkingDirectory string                     `json:"workingDirectory,omitempty"`
	Config           map[string]json.RawMessage `json:"config,omitempty"`
	Meta             Meta                       `json:"_meta,omitempty"`
}

// ResolveSessionConfigResult is the full current schema and the values with
// the host's defaults applied (pass them to createSession's config).
type ResolveSessionConfigResult struct {
	Schema SessionConfigSchema        `json:"schema"`
	Values map[string]json.RawMessage `json:"values"`
}

type resolveResultAlias ResolveSessionConfigResult

// MarshalJSON writes the result with values always an object.
func (r ResolveSessionConfigResult) MarshalJSON() ([]byte, error) {
	if r.Values == nil {
		r.Values = map[string]json.RawMessage{}
	}
	return json.Marshal(resolveResultAlias(r))
}

// SessionConfigCompletionsParams is the params of
// `sessionConfigCompletions`: values of Property matching Query.
type SessionConfigCompletionsParams struct {
	Channel          string                     `json:"channel"`
	Provider         string                     `json:"provider,omitempty"`
	WorkingDirectory string                     `json:"workingDirectory,omitempty"`
	Config           map[string]json.RawMessage `json:"config,omitempty"`
	Property         string                     `json:"property"`
	Query            string                     `json:"query,omitempty"`
	Meta             Meta                       `json:"_meta,omitempty"`
}

// SessionConfigValueItem is one value `sessionConfigCompletions` offers.
type SessionConfigValueItem struct {
	Value       string `json:"value"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// SessionConfigCompletionsResult is the result of `sessionConfigCompletions`.
type SessionConfigCompletionsResult struct {
	Items []SessionConfigValueItem `json:"items"`
}

type configCompletionsAlias SessionConfigCompletionsResult

// MarshalJSON writes the result with items always an array.
func (r SessionConfigCompletionsResult) MarshalJSON() ([]byte, error) {
	if r.Items == nil {
		r.Items = []SessionConfigValueItem{}
	}
	return json.Marshal(configCompletionsAlias(r))
}

// AuthenticateParams is the params of `authenticate` (result `{}`): an
// RFC 6750 bearer token for a protected resource; an empty Token revokes.
// Never log it.
type AuthenticateParams struct {
	Channel   string   `json:"channel"`
	Resource  string   `json:"resource"`
	Token     string   `json:"token"`
	ExpiresIn *int64   `json:"expiresIn,omitempty"`
	Scopes    []string `json:"scopes,omitempty"`
}

// AuthRequiredData is the data of a -32007 error.
type AuthRequiredData struct {
	Resources []ProtectedResourceMetadata `json:"resources"`
}
