package ahpwire

import "encoding/json"

// SessionReady marks the session ready.
type SessionReady struct{}

// SessionCreationFailed marks the session failed.
type SessionCreationFailed struct {
	Error ErrorInfo `json:"error"`
}

// SessionChatAdded upserts a chat into the catalog.
type SessionChatAdded struct {
	Summary ChatSummary `json:"summary"`
}

// SessionChatRemoved removes a chat from the catalog.
type SessionChatRemoved struct {
	Chat string `json:"chat"`
}

// PartialChatSummary carries changed chat summary fields; nil is unchanged.
type PartialChatSummary struct {
	Title              *string          `json:"title,omitempty"`
	Description        *string          `json:"description,omitempty"`
	Status             *SessionStatus   `json:"status,omitempty"`
	Activity           *string          `json:"activity,omitempty"`
	ModifiedAt         *Timestamp       `json:"modifiedAt,omitempty"`
	Changes            *ChangeStats     `json:"changes,omitempty"`
	Origin             *ChatOrigin      `json:"origin,omitempty"`
	ParentChat         *string          `json:"parentChat,omitempty"`
	Movable            *bool            `json:"movable,omitempty"`
	Interactivity      *string          `json:"interactivity,omitempty"`
	WorkingDirectories []string         `json:"workingDirectories,omitzero"`
	BackgroundWork     []BackgroundWork `json:"backgroundWork,omitzero"`
}

// Apply returns s with the changes merged in (identity unchanged).
func (p PartialChatSummary) Apply(s ChatSummary) ChatSummary {
	mergeVal(&s.Title, p.Title)
	mergeVal(&s.Description, p.Description)
	mergeVal(&s.Status, p.Status)
	mergeVal(&s.Activity, p.Activity)
	mergeVal(&s.ModifiedAt, p.ModifiedAt)
	mergePtr(&s.Changes, p.Changes)
	mergePtr(&s.Origin, p.Origin)
	mergeVal(&s.ParentChat, p.ParentChat)
	mergePtr(&s.Movable, p.Movable)
	mergeVal(&s.Interactivity, p.Interactivity)
	mergeSlice(&s.WorkingDirectories, p.WorkingDirectories)
	mergeSlice(&s.BackgroundWork, p.BackgroundWork)
	return s
}

// SessionChatUpdated merges changes into a catalog entry.
type SessionChatUpdated struct {
	Chat    string             `json:"chat"`
	Changes PartialChatSummary `json:"changes"`
}

// SessionDefaultChatChanged sets ("" clears) the default chat.
type SessionDefaultChatChanged struct {
	DefaultChat string `json:"defaultChat,omitempty"`
}

// SessionTitleChanged renames the session.
type SessionTitleChanged struct {
	Title string `json:"title"`
}

// SessionActivityChanged sets ("" clears) the activity.
type SessionActivityChanged struct {
	Activity string `json:"activity,omitempty"`
}

// SessionIsReadChanged sets or clears the IsRead bit.
type SessionIsReadChanged struct {
	IsRead bool `json:"isRead"`
}

// SessionIsArchivedChanged sets or clears the IsArchived bit.
type SessionIsArchivedChanged struct {
	IsArchived bool `json:"isArchived"`
}

// SessionChangesetsChanged replaces (nil clears) the changeset catalogue.
type SessionChangesetsChanged struct {
	Changesets []Changeset `json:"changesets,omitempty"`
}

// SessionServerToolsChanged replaces the server tools (kept raw).
type SessionServerToolsChanged struct {
	Tools []json.RawMessage `json:"tools"`
}

// SessionActiveClientSet upserts an active client by clientId.
type SessionActiveClientSet struct {
	ActiveClient SessionActiveClient `json:"activeClient"`
}

// SessionActiveClientRemoved removes an active client.
type SessionActiveClientRemoved struct {
	ClientID string `json:"clientId"`
}

// SessionWorkingDirectorySet adds a working directory.
type SessionWorkingDirectorySet struct {
	Directory string `json:"directory"`
}

// SessionWorkingDirectoryRemoved removes a working directory.
type SessionWorkingDirectoryRemoved struct {
	Directory string `json:"directory"`
}

// SessionInputNeededSet upserts an input-needed entry by id.
type SessionInputNeededSet struct {
	Request SessionInputRequest `json:"request"`
}

// SessionInputNeededRemoved removes an input-needed entry.
type SessionInputNeededRemoved struct {
	ID string `json:"id"`
}

// SessionCustomizationsChanged replaces the customizations (kept raw).
type SessionCustomizationsChanged struct {
	Customizations []json.RawMessage `json:"customizations"`
}

// SessionConfigChanged merges (or with Replace, replaces) config values.
type SessionConfigChanged struct {
	Config  map[string]json.RawMessage `json:"config"`
	Replace bool                       `json:"replace,omitempty"`
}

// SessionMetaChanged replaces the session `_meta`.
type SessionMetaChanged struct {
	Meta Meta `json:"_meta,omitempty"`
}
