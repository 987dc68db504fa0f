package ahpwire

// Annotations action types (`ahp-session:/<uuid>/annotations` channels).
// All five are client-dispatchable.
const (
	ActionAnnotationsSet          = "annotations/set"
	ActionAnnotationsUpdated      = "annotations/updated"
	ActionAnnotationsRemoved      = "annotations/removed"
	ActionAnnotationsEntrySet     = "annotations/entrySet"
	ActionAnnotationsEntryRemoved = "annotations/entryRemoved"
)

func init() {
	actionRegistry[ActionAnnotationsSet] = func() Action { return new(AnnotationsSet) }
	actionRegistry[ActionAnnotationsUpdated] = func() Action { return new(AnnotationsUpdated) }
	actionRegistry[ActionAnnotationsRemoved] = func() Action { return new(AnnotationsRemoved) }
	actionRegistry[ActionAnnotationsEntrySet] = func() Action { return new(AnnotationsEntrySet) }
	actionRegistry[ActionAnnotationsEntryRemoved] = func() Action { return new(AnnotationsEntryRemoved) }
}

// AnnotationsSet upserts a whole annotation by id (a replacement drops
// members the new one does not carry, e.g. its range).
type AnnotationsSet struct {
	Annotation Annotation `json:"annotation"`
}

// AnnotationsUpdated changes the present members of an existing
// annotation without resending its entries (unknown id: no-op).
type AnnotationsUpdated struct {
	AnnotationID string            `json:"annotationId"`
	TurnID       *string           `json:"turnId,omitempty"`
	Origin       *AnnotationOrigin `json:"origin,omitempty"`
	Resource     *string           `json:"resource,omitempty"`
	Range        *TextRange        `json:"range,omitempty"`
	Resolved     *bool             `json:"resolved,omitempty"`
}

// AnnotationsRemoved removes an annotation.
type AnnotationsRemoved struct {
	AnnotationID string `json:"annotationId"`
}

// AnnotationsEntrySet upserts an entry of an annotation by entry id
// (appended when new).
type AnnotationsEntrySet struct {
	AnnotationID string          `json:"annotationId"`
	Entry        AnnotationEntry `json:"entry"`
}

// AnnotationsEntryRemoved removes an entry of an annotation.
type AnnotationsEntryRemoved struct {
	AnnotationID string `json:"annotationId"`
	EntryID      string `json:"entryId"`
}

// ActionType returns ActionAnnotationsSet.
func (*AnnotationsSet) ActionType() string { return ActionAnnotationsSet }

// ActionType returns ActionAnnotationsUpdated.
func (*AnnotationsUpdated) ActionType() string { return ActionAnnotationsUpdated }

// ActionType returns ActionAnnotationsRemoved.
func (*AnnotationsRemoved) ActionType() string { return ActionAnnotationsRemoved }

// ActionType returns ActionAnnotationsEntrySet.
func (*AnnotationsEntrySet) ActionType() string { return ActionAnnotationsEntrySet }

// ActionType returns ActionAnnotationsEntryRemoved.
func (*AnnotationsEntryRemoved) ActionType() string { return ActionAnnotationsEntryRemoved }

// MarshalJSON writes the action with its type.
func (a AnnotationsSet) MarshalJSON() ([]byte, error) {
	type plain AnnotationsSet
	return withType(ActionAnnotationsSet, plain(a))
}

// MarshalJSON writes the action with its type.
func (a AnnotationsUpdated) MarshalJSON() ([]byte, error) {
	type plain AnnotationsUpdated
	return withType(ActionAnnotationsUpdated, plain(a))
}

// MarshalJSON writes the action with its type.
func (a AnnotationsRemoved) MarshalJSON() ([]byte, error) {
	type plain AnnotationsRemoved
	return withType(ActionAnnotationsRemoved, plain(a))
}

// MarshalJSON writes the action with its type.
func (a AnnotationsEntrySet) MarshalJSON() ([]byte, error) {
	type plain AnnotationsEntrySet
	return withType(ActionAnnotationsEntrySet, plain(a))
}

// MarshalJSON writes the action with its type.
func (a AnnotationsEntryRemoved) MarshalJSON() ([]byte, error) {
	type plain AnnotationsEntryRemoved
	return withType(ActionAnnotationsEntryRemoved, plain(a))
}
