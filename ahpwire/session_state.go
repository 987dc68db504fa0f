package ahpwire

import (
	"encoding/json"
	"fmt"
)

// Session lifecycle values. LifecycleCreationFailed is the value AHP's
// SessionLifecycle enum defines for a failed creation (what
// session/creationFailed sets); LifecycleFailed is a spelling some hosts
// and older notes use, accepted on input only.
const (
	LifecycleCreating       = "creating"
	LifecycleReady          = "ready"
	LifecycleFailed         = "failed"
	LifecycleCreationFailed = "creationFailed"
)

// Session input request kinds.
const (
	InputNeededChatInput           = "chatInput"
	InputNeededToolConfirmation    = "toolConfirmation"
	InputNeededToolClientExecution = "toolClientExecution"
	InputNeededToolAuthentication  = "toolAuthentication"
)

// ProjectInfo is a session's server-owned project.
type ProjectInfo struct {
	URI         string `json:"uri"`
	DisplayName string `json:"displayName"`
}

// RepositorySource is a requested repository checkout.
type RepositorySource struct {
	Source   string `json:"source"`
	Revision string `json:"revision,omitempty"`
}

// AnnotationsSummary counts a session's annotations.
type AnnotationsSummary struct {
	Resource        string `json:"resource"`
	AnnotationCount int64  `json:"annotationCount"`
	EntryCount      int64  `json:"entryCount"`
}

// SessionOrigin records automation provenance ({kind:"automation", automation, run}).
type SessionOrigin struct {
	Kind       string `json:"kind"`
	Automation string `json:"automation,omitempty"`
	Run        string `json:"run,omitempty"`
}

// SessionActiveClient is a client providing tools to a session. Tools and
// customizations are kept raw.
type SessionActiveClient struct {
	ClientID       string            `json:"clientId"`
	DisplayName    string            `json:"displayName,omitempty"`
	Tools          []json.RawMessage `json:"tools"`
	Customizations []json.RawMessage `json:"customizations,omitempty"`
}

// SessionInputRequest is an entry of SessionState.inputNeeded (flat union by Kind).
type SessionInputRequest struct {
	ID       string            `json:"id"`
	Chat     string            `json:"chat"`
	Kind     string            `json:"kind"`
	Request  *ChatInputRequest `json:"request,omitempty"`
	TurnID   string            `json:"turnId,omitempty"`
	ClientID string            `json:"clientId,omitempty"`
	ToolCall *ToolCallState    `json:"toolCall,omitempty"`
}

// SessionState is the full state of an `ahp-session:` channel.
type SessionState struct {
	Provider           string                `json:"provider"`
	Title              string                `json:"title"`
	Status             SessionStatus         `json:"status"`
	Activity           string                `json:"activity,omitempty"`
	Origin             *SessionOrigin        `json:"origin,omitempty"`
	Project            *ProjectInfo          `json:"project,omitempty"`
	WorkingDirectories []string              `json:"workingDirectories,omitempty"`
	Repositories       []RepositorySource    `json:"repositories,omitempty"`
	Annotations        *AnnotationsSummary   `json:"annotations,omitempty"`
	Lifecycle          string                `json:"lifecycle"`
	CreationError      *ErrorInfo            `json:"creationError,omitempty"`
	ServerTools        []json.RawMessage     `json:"serverTools,omitempty"`
	ActiveClients      []SessionActiveClient `json:"activeClients"`
	Chats              []ChatSummary         `json:"chats"`
	DefaultChat        string                `json:"defaultChat,omitempty"`
	Config             *ConfigState          `json:"config,omitempty"`
	Customizations     []json.RawMessage     `json:"customizations,omitempty"`
	Changesets         []Changeset           `json:"changesets,omitempty"`
	InputNeeded        []SessionInputRequest `json:"inputNeeded,omitempty"`
	// Artifacts are the session's artifacts (1.1).
	Artifacts []SessionArtifact `json:"artifacts,omitempty"`
	Meta      Meta              `json:"_meta,omitempty"`
}

type sessionStateAlias SessionState

// MarshalJSON writes the state with activeClients and chats always arrays.
func (s SessionState) MarshalJSON() ([]byte, error) {
	if s.ActiveClients == nil {
		s.ActiveClients = []SessionActiveClient{}
	}
	if s.Chats == nil {
		s.Chats = []ChatSummary{}
	}
	return json.Marshal(sessionStateAlias(s))
}

// DecodeSessionState decodes a SessionState (e.g. Snapshot.State).
func DecodeSessionState(raw []byte) (SessionState, error) {
	var s SessionState
	if err := json.Unmarshal(raw, &s); err != nil {
		return SessionState{}, fmt.Errorf("ahpwire: session state: %w", err)
	}
	return s, nil
}

// SessionChatSummary is the light chat entry of SessionSummary.chats.
type SessionChatSummary struct {
	Resource      string         `json:"resource"`
	Title         string         `json:"title"`
	Origin        *ChatOrigin    `json:"origin,omitempty"`
	Interactivity string         `json:"interactivity,omitempty"`
	Status        *SessionStatus `json:"status,omitempty"`
	Changes       *ChangeStats   `json:"changes,omitempty"`
}

// SessionSummary is the root catalog entry of a session.
type SessionSummary struct {
	Resource           string               `json:"resource"`
	Provider           string               `json:"provider"`
	Title              string               `json:"title"`
	Status             SessionStatus        `json:"status"`
	Activity           string               `json:"activity,omitempty"`
	CreatedAt          Timestamp            `json:"createdAt"`
	ModifiedAt         Timestamp            `json:"modifiedAt"`
	Origin             *SessionOrigin       `json:"origin,omitempty"`
	Project            *ProjectInfo         `json:"project,omitempty"`
	WorkingDirectories []string             `json:"workingDirectories,omitempty"`
	Repositories       []RepositorySource   `json:"repositories,omitempty"`
	Annotations        *AnnotationsSummary  `json:"annotations,omitempty"`
	Changes            *ChangeStats         `json:"changes,omitempty"`
	Meta               Meta                 `json:"_meta,omitempty"`
	Chats              []SessionChatSummary `json:"chats,omitempty"`
	DefaultChat        string               `json:"defaultChat,omitempty"`
	// Artifacts are the session's artifacts (1.1).
	Artifacts []SessionArtifact `json:"artifacts,omitempty"`
}

// PartialSessionSummary carries the changed fields of
// root/sessionSummaryChanged; nil/empty fields are unchanged.
type PartialSessionSummary struct {
	Title              *string              `json:"title,omitempty"`
	Status             *SessionStatus       `json:"status,omitempty"`
	Activity           *string              `json:"activity,omitempty"`
	ModifiedAt         *Timestamp           `json:"modifiedAt,omitempty"`
	Origin             *SessionOrigin       `json:"origin,omitempty"`
	Project            *ProjectInfo         `json:"project,omitempty"`
	WorkingDirectories []string             `json:"workingDirectories,omitempty"`
	Annotations        *AnnotationsSummary  `json:"annotations,omitempty"`
	Changes            *ChangeStats         `json:"changes,omitempty"`
	Meta               Meta                 `json:"_meta,omitempty"`
	Chats              []SessionChatSummary `json:"chats,omitempty"`
	DefaultChat        *string              `json:"defaultChat,omitempty"`
}

// Apply returns s with the changes merged in.
func (p PartialSessionSummary) Apply(s SessionSummary) SessionSummary {
	mergeVal(&s.Title, p.Title)
	mergeVal(&s.Status, p.Status)
	mergeVal(&s.Activity, p.Activity)
	mergeVal(&s.ModifiedAt, p.ModifiedAt)
	mergePtr(&s.Origin, p.Origin)
	mergePtr(&s.Project, p.Project)
	mergeSlice(&s.WorkingDirectories, p.WorkingDirectories)
	mergePtr(&s.Annotations, p.Annotations)
	mergePtr(&s.Changes, p.Changes)
	mergeMap(&s.Meta, p.Meta)
	mergeSlice(&s.Chats, p.Chats)
	mergeVal(&s.DefaultChat, p.DefaultChat)
	return s
}
