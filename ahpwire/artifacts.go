package ahpwire

import "encoding/json"

// Session artifacts (AHP 1.1): the durable items a session produced,
// references, or derives its work from, in SessionState.artifacts and
// SessionSummary.artifacts, maintained with session/artifactSet and
// session/artifactRemoved. An artifact is kept as the host sent it (Raw),
// so kinds and members this client does not know survive a round trip;
// the members a UI needs are read from it.

// Action types of the artifact actions.
const (
	// ActionSessionArtifactSet is the type of SessionArtifactSet.
	ActionSessionArtifactSet = "session/artifactSet"
	// ActionSessionArtifactRemoved is the type of SessionArtifactRemoved.
	ActionSessionArtifactRemoved = "session/artifactRemoved"
)

func init() {
	actionRegistry[ActionSessionArtifactSet] = func() Action { return new(SessionArtifactSet) }
	actionRegistry[ActionSessionArtifactRemoved] = func() Action { return new(SessionArtifactRemoved) }
}

// SessionArtifact is one artifact. ID, Kind, Title and URI are read from
// Raw (title falls back to label or name; uri to resource; kind to
// displayKind or type; id to the uri, the key AHP 1.1's ResourceArtifact
// is listed by); Raw is what is written back.
type SessionArtifact struct {
	ID    string
	Kind  string
	Title string
	URI   string
	// Relations are the artifact's ArtifactRelations, kept raw.
	Relations []json.RawMessage
	Raw       json.RawMessage
}

type artifactHead struct {
	ID        string            `json:"id"`
	Kind      string            `json:"kind"`
	Display   string            `json:"displayKind"`
	Type      string            `json:"type"`
	Title     string            `json:"title"`
	Label     string            `json:"label"`
	Name      string            `json:"name"`
	URI       string            `json:"uri"`
	Resource  string            `json:"resource"`
	Relations []json.RawMessage `json:"relations"`
}

// UnmarshalJSON keeps the artifact verbatim and reads its known members.
func (a *SessionArtifact) UnmarshalJSON(b []byte) error {
	var h artifactHead
	if err := json.Unmarshal(b, &h); err != nil {
		return err //nolint:wrapcheck // encoding/json's own message
	}
	uri := firstOf(h.URI, h.Resource)
	*a = SessionArtifact{ID: firstOf(h.ID, uri), Kind: firstOf(h.Kind, h.Display, h.Type), Title: firstOf(h.Title, h.Label, h.Name), URI: uri,
		Relations: h.Relations, Raw: append(json.RawMessage(nil), b...)}
	return nil
}

// MarshalJSON writes Raw, or the known members of an artifact built in Go.
func (a SessionArtifact) MarshalJSON() ([]byte, error) {
	if len(a.Raw) > 0 {
		return a.Raw, nil
	}
	return json.Marshal(struct {
		ID        string            `json:"id"`
		Kind      string            `json:"kind"`
		Title     string            `json:"title,omitempty"`
		URI       string            `json:"uri,omitempty"`
		Relations []json.RawMessage `json:"relations,omitempty"`
	}{a.ID, a.Kind, a.Title, a.URI, a.Relations})
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// SessionArtifactSet adds or replaces (by id) an artifact.
type SessionArtifactSet struct {
	Artifact SessionArtifact `json:"artifact"`
}

// SessionArtifactRemoved removes the artifact with the given id (or, in
// AHP 1.1's shape, uri: artifacts are keyed by their uri).
type SessionArtifactRemoved struct {
	ID  string `json:"id,omitempty"`
	URI string `json:"uri,omitempty"`
}

// Key is the key of the artifact to remove: its id, else its uri.
func (a *SessionArtifactRemoved) Key() string { return firstOf(a.ID, a.URI) }

// ActionType returns ActionSessionArtifactSet.
func (*SessionArtifactSet) ActionType() string { return ActionSessionArtifactSet }

// ActionType returns ActionSessionArtifactRemoved.
func (*SessionArtifactRemoved) ActionType() string { return ActionSessionArtifactRemoved }

// MarshalJSON encodes the action with its type.
func (a SessionArtifactSet) MarshalJSON() ([]byte, error) {
	type plain SessionArtifactSet
	return withType(ActionSessionArtifactSet, plain(a))
}

// MarshalJSON encodes the action with its type.
func (a SessionArtifactRemoved) MarshalJSON() ([]byte, error) {
	type plain SessionArtifactRemoved
	return withType(ActionSessionArtifactRemoved, plain(a))
}
