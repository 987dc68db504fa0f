package ahpwire

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ActionOrigin identifies the client dispatch an envelope echoes.
type ActionOrigin struct {
	ClientID  string `json:"clientId"`
	ClientSeq uint64 `json:"clientSeq"`
}

// ActionEnvelope is the params of the server→client `action` notification.
// Origin is nil for server-originated actions. A non-empty RejectionReason
// means the dispatched action was rejected and must not be applied.
type ActionEnvelope struct {
	Channel         string
	ServerSeq       uint64
	Origin          *ActionOrigin
	Action          Action
	RejectionReason string
}

type envelopeWire struct {
	Channel         string          `json:"channel"`
	Action          json.RawMessage `json:"action"`
	ServerSeq       uint64          `json:"serverSeq"`
	Origin          *ActionOrigin   `json:"origin,omitempty"`
	RejectionReason string          `json:"rejectionReason,omitempty"`
}

// MarshalJSON writes the envelope with the action's type discriminator.
func (e ActionEnvelope) MarshalJSON() ([]byte, error) {
	if e.Action == nil {
		return nil, errors.New("ahpwire: envelope without action")
	}
	a, err := MarshalAction(e.Action)
	if err != nil {
		return nil, err
	}
	return json.Marshal(envelopeWire{e.Channel, a, e.ServerSeq, e.Origin, e.RejectionReason})
}

// UnmarshalJSON decodes the envelope and its action (see DecodeAction).
func (e *ActionEnvelope) UnmarshalJSON(data []byte) error {
	var w envelopeWire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("ahpwire: action envelope: %w", err)
	}
	if len(w.Action) == 0 || string(w.Action) == "null" {
		return errors.New("ahpwire: action envelope without action")
	}
	a, err := DecodeAction(w.Action)
	if err != nil {
		return fmt.Errorf("ahpwire: action envelope seq %d: %w", w.ServerSeq, err)
	}
	*e = ActionEnvelope{Channel: w.Channel, ServerSeq: w.ServerSeq, Origin: w.Origin, Action: a, RejectionReason: w.RejectionReason}
	return nil
}

// DispatchActionParams is the params of the client→server `dispatchAction`
// notification.
type DispatchActionParams struct {
	Channel   string
	ClientSeq uint64
	Action    Action
	Meta      Meta
}

type dispatchWire struct {
	Channel   string          `json:"channel"`
	ClientSeq uint64          `json:"clientSeq"`
	Action    json.RawMessage `json:"action"`
	Meta      Meta            `json:"_meta,omitempty"`
}

// MarshalJSON writes the params with the action's type discriminator.
func (p DispatchActionParams) MarshalJSON() ([]byte, error) {
	if p.Action == nil {
		return nil, errors.New("ahpwire: dispatchAction without action")
	}
	a, err := MarshalAction(p.Action)
	if err != nil {
		return nil, err
	}
	return json.Marshal(dispatchWire{p.Channel, p.ClientSeq, a, p.Meta})
}

// UnmarshalJSON decodes the params and the action (see DecodeAction).
func (p *DispatchActionParams) UnmarshalJSON(data []byte) error {
	var w dispatchWire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("ahpwire: dispatchAction params: %w", err)
	}
	if len(w.Action) == 0 || string(w.Action) == "null" {
		return errors.New("ahpwire: dispatchAction without action")
	}
	a, err := DecodeAction(w.Action)
	if err != nil {
		return fmt.Errorf("ahpwire: dispatchAction: %w", err)
	}
	*p = DispatchActionParams{Channel: w.Channel, ClientSeq: w.ClientSeq, Action: a, Meta: w.Meta}
	return nil
}
