package ahpwire

import (
	"encoding/json"
	"fmt"
)

// Changeset statuses (ChangesetStatus).
const (
	ChangesetComputing = "computing"
	ChangesetReady     = "ready"
	ChangesetError     = "error"
)

// Changeset operation statuses (ChangesetOperationStatus).
const (
	OperationIdle     = "idle"
	OperationRunning  = "running"
	OperationError    = "error"
	OperationDisabled = "disabled"
)

// ChangesetCapabilities are presence flags of a catalogue entry; Review
// non-nil means files may be marked reviewed.
type ChangesetCapabilities struct {
	Review *struct{} `json:"review,omitempty"`
}

// ChangesetState is the state of one `ahp-changeset:` channel.
type ChangesetState struct {
	Status     string               `json:"status"`
	Error      *ErrorInfo           `json:"error,omitempty"`
	Files      []ChangesetFile      `json:"files"`
	Operations []ChangesetOperation `json:"operations,omitempty"`
}

type changesetStateAlias ChangesetState

// MarshalJSON writes the state with files always an array.
func (s ChangesetState) MarshalJSON() ([]byte, error) {
	if s.Files == nil {
		s.Files = []ChangesetFile{}
	}
	return json.Marshal(changesetStateAlias(s))
}

// DecodeChangesetState decodes a ChangesetState snapshot.
func DecodeChangesetState(raw []byte) (ChangesetState, error) {
	var s ChangesetState
	if err := json.Unmarshal(raw, &s); err != nil {
		return ChangesetState{}, fmt.Errorf("ahpwire: changeset state: %w", err)
	}
	return s, nil
}

// ChangesetFile is one file of a changeset, keyed by ID.
type ChangesetFile struct {
	ID       string   `json:"id"`
	Edit     FileEdit `json:"edit"`
	Reviewed *bool    `json:"reviewed,omitempty"`
	Meta     Meta     `json:"_meta,omitempty"`
}

// IsReviewed reports the review flag (absent means not reviewed).
func (f ChangesetFile) IsReviewed() bool { return f.Reviewed != nil && *f.Reviewed }

// ChangesetOperation is a server-declared verb on a changeset.
type ChangesetOperation struct {
	ID           string            `json:"id"`
	Label        string            `json:"label"`
	Description  string            `json:"description,omitempty"`
	Scopes       []string          `json:"scopes"`
	Confirmation *StringOrMarkdown `json:"confirmation,omitempty"`
	Icon         string            `json:"icon,omitempty"`
	Group        string            `json:"group,omitempty"`
	Status       string            `json:"status"`
	Error        *ErrorInfo        `json:"error,omitempty"`
}

// FileEditKind classifies an edit: "created" (only after), "deleted" (only
// before), "renamed" (different URIs) or "modified".
func (e FileEdit) Kind() string {
	switch {
	case e.Before == nil && e.After != nil:
		return "created"
	case e.After == nil && e.Before != nil:
		return "deleted"
	case e.Before != nil && e.After != nil && e.Before.URI != e.After.URI:
		return "renamed"
	}
	return "modified"
}

// Path returns the edit's file URI: after's, or before's for deletions.
func (e FileEdit) Path() string {
	if e.After != nil {
		return e.After.URI
	}
	if e.Before != nil {
		return e.Before.URI
	}
	return ""
}
