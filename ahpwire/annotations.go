package ahpwire

import (
	"encoding/json"
	"fmt"
	"strings"
)

// AnnotationsSuffix ends a session's annotations channel URI:
// `ahp-session:/<uuid>/annotations`.
const AnnotationsSuffix = "/annotations"

// AnnotationsURI returns the annotations channel of session.
func AnnotationsURI(session string) string { return session + AnnotationsSuffix }

// AnnotationsSession returns the session an annotations channel URI belongs
// to, and false when uri is not one.
func AnnotationsSession(uri string) (string, bool) {
	s, ok := strings.CutSuffix(uri, AnnotationsSuffix)
	if !ok || !strings.HasPrefix(s, SessionScheme+"/") || len(s) <= len(SessionScheme)+1 {
		return "", false
	}
	return s, true
}

// AnnotationsState is the state of an annotations channel: the review
// comments of one session, in creation order.
type AnnotationsState struct {
	Annotations []Annotation `json:"annotations"`
}

// MarshalJSON writes the state with annotations always an array.
func (s AnnotationsState) MarshalJSON() ([]byte, error) {
	type plain AnnotationsState
	if s.Annotations == nil {
		s.Annotations = []Annotation{}
	}
	return json.Marshal(plain(s))
}

// DecodeAnnotationsState decodes an AnnotationsState snapshot.
func DecodeAnnotationsState(raw []byte) (AnnotationsState, error) {
	var s AnnotationsState
	if err := json.Unmarshal(raw, &s); err != nil {
		return AnnotationsState{}, fmt.Errorf("ahpwire: annotations state: %w", err)
	}
	return s, nil
}

// Summary counts the annotations and entries of s for SessionSummary /
// SessionState.annotations; resource is the channel URI.
func (s AnnotationsState) Summary(resource string) AnnotationsSummary {
	sum := AnnotationsSummary{Resource: resource, AnnotationCount: int64(len(s.Annotations))}
	for _, a := range s.Annotations {
		sum.EntryCount += int64(len(a.Entries))
	}
	return sum
}

// Annotation is a comment thread anchored to a resource (a file URI), an
// optional range in it, and the turn that produced what it comments on.
// Range nil anchors it to the whole resource. The 1.0 wire names the turn
// with TurnID; newer hosts send Origin {session, chat, turnId} as well.
type Annotation struct {
	ID       string            `json:"id"`
	TurnID   string            `json:"turnId,omitempty"`
	Origin   *AnnotationOrigin `json:"origin,omitempty"`
	Resource string            `json:"resource"`
	Range    *TextRange        `json:"range,omitempty"`
	Resolved bool              `json:"resolved"`
	Entries  []AnnotationEntry `json:"entries"`
	Meta     Meta              `json:"_meta,omitempty"`
	// Extra holds the members this package does not model
	// (annotations_extra.go).
	Extra map[string]json.RawMessage `json:"-"`
}

// Turn returns the turn the annotation is anchored to (TurnID, else the
// origin's).
func (a Annotation) Turn() string {
	if a.TurnID == "" && a.Origin != nil {
		return a.Origin.TurnID
	}
	return a.TurnID
}

// AnnotationOrigin names where an annotation was made.
type AnnotationOrigin struct {
	Session string `json:"session,omitempty"`
	Chat    string `json:"chat,omitempty"`
	TurnID  string `json:"turnId,omitempty"`
}

// AnnotationEntry is one comment of a thread (the first is the comment,
// later ones replies). Text is plain or markdown.
type AnnotationEntry struct {
	ID   string           `json:"id"`
	Text StringOrMarkdown `json:"text"`
	Meta Meta             `json:"_meta,omitempty"`
	// Extra holds the members this package does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

// Author returns the entry's `_meta.author` ("user", "agent", …; "" when
// absent).
func (e AnnotationEntry) Author() string {
	var s string
	if raw, ok := e.Meta["author"]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// AuthorMeta returns a Meta with `author` set to who.
func AuthorMeta(who string) Meta {
	b, _ := json.Marshal(who)
	return Meta{"author": b}
}
