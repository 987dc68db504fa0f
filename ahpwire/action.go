package ahpwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Action is one AHP state action. Every concrete action is a pointer to a
// struct of this package (e.g. *ChatDelta) or *UnknownAction. Marshal an
// action with MarshalAction or plain json.Marshal: the `type` discriminator
// is written by each action's MarshalJSON.
type Action interface {
	// ActionType returns the wire `type` discriminator, e.g. "chat/delta".
	ActionType() string
}

// UnknownAction is an action whose type this package does not know. It is
// re-encoded verbatim.
type UnknownAction struct {
	Type string
	Raw  json.RawMessage
}

// ActionType returns the original type string.
func (a *UnknownAction) ActionType() string { return a.Type }

// MarshalJSON writes the original JSON.
func (a UnknownAction) MarshalJSON() ([]byte, error) {
	if len(a.Raw) == 0 {
		return json.Marshal(struct {
			Type string `json:"type"`
		}{a.Type})
	}
	return a.Raw, nil
}

// ErrNoActionType is returned by DecodeAction for an object without a
// string `type`.
var ErrNoActionType = errors.New("ahpwire: action has no type")

// MarshalAction encodes a with its `type` discriminator.
func MarshalAction(a Action) ([]byte, error) {
	if a == nil {
		return nil, errors.New("ahpwire: marshal nil action")
	}
	if d, ok := a.(*ChatDelta); ok && d != nil && len(d.Meta) == 0 {
		return marshalChatDelta(d), nil // the streaming hot path (fastdelta.go)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("ahpwire: marshal %s: %w", a.ActionType(), err)
	}
	return b, nil
}

// DecodeAction decodes one action object. Unknown types yield
// *UnknownAction; unknown fields are ignored. A malformed known action is
// an error.
func DecodeAction(raw []byte) (Action, error) {
	var head struct {
		Type *string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, fmt.Errorf("ahpwire: decode action: %w", err)
	}
	if head.Type == nil || *head.Type == "" {
		return nil, ErrNoActionType
	}
	mk, ok := actionRegistry[*head.Type]
	if !ok {
		return &UnknownAction{Type: *head.Type, Raw: append(json.RawMessage(nil), bytes.TrimSpace(raw)...)}, nil
	}
	a := mk()
	if err := json.Unmarshal(raw, a); err != nil {
		return nil, fmt.Errorf("ahpwire: decode %s: %w", *head.Type, err)
	}
	return a, nil
}

// KnownActionType reports whether t decodes to a typed action.
func KnownActionType(t string) bool {
	_, ok := actionRegistry[t]
	return ok
}

// withType marshals v (a struct) and prepends the "type" member.
func withType(t string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	tb, _ := json.Marshal(t)
	var buf bytes.Buffer
	buf.Grow(len(b) + len(tb) + 9)
	buf.WriteString(`{"type":`)
	buf.Write(tb)
	if len(b) > 2 {
		buf.WriteByte(',')
		buf.Write(b[1:])
	} else {
		buf.WriteByte('}')
	}
	return buf.Bytes(), nil
}

// Ptr returns a pointer to v (for optional fields).
func Ptr[T any](v T) *T { return &v }
