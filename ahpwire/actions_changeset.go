package ahpwire

// Changeset action types (`ahp-changeset:` channels).
const (
	ActionChangesetStatusChanged          = "changeset/statusChanged"
	ActionChangesetFileSet                = "changeset/fileSet"
	ActionChangesetFileRemoved            = "changeset/fileRemoved"
	ActionChangesetContentChanged         = "changeset/contentChanged"
	ActionChangesetOperationsChanged      = "changeset/operationsChanged"
	ActionChangesetOperationStatusChanged = "changeset/operationStatusChanged"
	ActionChangesetCleared                = "changeset/cleared"
	ActionChangesetFilesReviewChanged     = "changeset/filesReviewChanged"
)

func init() {
	actionRegistry[ActionChangesetStatusChanged] = func() Action { return new(ChangesetStatusChanged) }
	actionRegistry[ActionChangesetFileSet] = func() Action { return new(ChangesetFileSet) }
	actionRegistry[ActionChangesetFileRemoved] = func() Action { return new(ChangesetFileRemoved) }
	actionRegistry[ActionChangesetContentChanged] = func() Action { return new(ChangesetContentChanged) }
	actionRegistry[ActionChangesetOperationsChanged] = func() Action { return new(ChangesetOperationsChanged) }
	actionRegistry[ActionChangesetOperationStatusChanged] = func() Action { return new(ChangesetOperationStatusChanged) }
	actionRegistry[ActionChangesetCleared] = func() Action { return new(ChangesetCleared) }
	actionRegistry[ActionChangesetFilesReviewChanged] = func() Action { return new(ChangesetFilesReviewChanged) }
}

// ChangesetStatusChanged sets the computation status (error only with
// status "error").
type ChangesetStatusChanged struct {
	Status string     `json:"status"`
	Error  *ErrorInfo `json:"error,omitempty"`
}

// ChangesetFileSet upserts a file by id.
type ChangesetFileSet struct {
	File ChangesetFile `json:"file"`
}

// ChangesetFileRemoved removes the file with FileID.
type ChangesetFileRemoved struct {
	FileID string `json:"fileId"`
}

// ChangesetContentChanged replaces the file list (and the operations when
// Operations is non-nil).
type ChangesetContentChanged struct {
	Files      []ChangesetFile      `json:"files"`
	Operations []ChangesetOperation `json:"operations,omitempty"`
	Error      *ErrorInfo           `json:"error,omitempty"`
}

// ChangesetOperationsChanged replaces (nil clears) the operation list.
type ChangesetOperationsChanged struct {
	Operations []ChangesetOperation `json:"operations"`
}

// ChangesetOperationStatusChanged sets one operation's status.
type ChangesetOperationStatusChanged struct {
	OperationID string     `json:"operationId"`
	Status      string     `json:"status"`
	Error       *ErrorInfo `json:"error,omitempty"`
}

// ChangesetCleared drops every file.
type ChangesetCleared struct{}

// ChangesetFilesReviewChanged sets the reviewed flag of the listed files
// (unknown ids are ignored). Client-dispatchable when the changeset
// advertises the review capability.
type ChangesetFilesReviewChanged struct {
	Files    []string `json:"files"`
	Reviewed bool     `json:"reviewed"`
}

// ActionType returns ActionChangesetStatusChanged.
func (*ChangesetStatusChanged) ActionType() string { return ActionChangesetStatusChanged }

// ActionType returns ActionChangesetFileSet.
func (*ChangesetFileSet) ActionType() string { return ActionChangesetFileSet }

// ActionType returns ActionChangesetFileRemoved.
func (*ChangesetFileRemoved) ActionType() string { return ActionChangesetFileRemoved }

// ActionType returns ActionChangesetContentChanged.
func (*ChangesetContentChanged) ActionType() string { return ActionChangesetContentChanged }

// ActionType returns ActionChangesetOperationsChanged.
func (*ChangesetOperationsChanged) ActionType() string { return ActionChangesetOperationsChanged }

// ActionType returns ActionChangesetOperationStatusChanged.
func (*ChangesetOperationStatusChanged) ActionType() string {
	return ActionChangesetOperationStatusChanged
}

// ActionType returns ActionChangesetCleared.
func (*ChangesetCleared) ActionType() string { return ActionChangesetCleared }

// ActionType returns ActionChangesetFilesReviewChanged.
func (*ChangesetFilesReviewChanged) ActionType() string { return ActionChangesetFilesReviewChanged }

// MarshalJSON writes the action with its type.
func (a ChangesetStatusChanged) MarshalJSON() ([]byte, error) {
	type plain ChangesetStatusChanged
	return withType(ActionChangesetStatusChanged, plain(a))
}

// MarshalJSON writes the action with its type.
func (a ChangesetFileSet) MarshalJSON() ([]byte, error) {
	type plain ChangesetFileSet
	return withType(ActionChangesetFileSet, plain(a))
}

// MarshalJSON writes the action with its type.
func (a ChangesetFileRemoved) MarshalJSON() ([]byte, error) {
	type plain ChangesetFileRemoved
	return withType(ActionChangesetFileRemoved, plain(a))
}

// MarshalJSON writes the action with its type; files is always an array.
func (a ChangesetContentChanged) MarshalJSON() ([]byte, error) {
	type plain ChangesetContentChanged
	if a.Files == nil {
		a.Files = []ChangesetFile{}
	}
	return withType(ActionChangesetContentChanged, plain(a))
}

// MarshalJSON writes the action with its type.
func (a ChangesetOperationsChanged) MarshalJSON() ([]byte, error) {
	type plain ChangesetOperationsChanged
	return withType(ActionChangesetOperationsChanged, plain(a))
}

// MarshalJSON writes the action with its type.
func (a ChangesetOperationStatusChanged) MarshalJSON() ([]byte, error) {
	type plain ChangesetOperationStatusChanged
	return withType(ActionChangesetOperationStatusChanged, plain(a))
}

// MarshalJSON writes the action with its type.
func (a ChangesetCleared) MarshalJSON() ([]byte, error) {
	return withType(ActionChangesetCleared, struct{}{})
}

// MarshalJSON writes the action with its type.
func (a ChangesetFilesReviewChanged) MarshalJSON() ([]byte, error) {
	type plain ChangesetFilesReviewChanged
	if a.Files == nil {
		a.Files = []string{}
	}
	return withType(ActionChangesetFilesReviewChanged, plain(a))
}
