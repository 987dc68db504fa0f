package ahpclient

import (
	"bytes"
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// actionMarker is how an `action` notification's method appears in a
// compactly encoded frame; frames containing it take the fast path.
var actionMarker = []byte(`"method":"action"`)

// envelopeParams are the params of an `action` notification with the
// action still raw.
type envelopeParams struct {
	Channel         string                `json:"channel"`
	ServerSeq       uint64                `json:"serverSeq"`
	Origin          *ahpwire.ActionOrigin `json:"origin"`
	RejectionReason string                `json:"rejectionReason"`
	Action          json.RawMessage       `json:"action"`
}

// envelope decodes the action tolerantly: a known action type whose payload
// this build cannot decode (an older or newer shape) is delivered as
// *ahpwire.UnknownAction so that sequence tracking never loses it; the
// consumer ignores it like any unknown type. Only a missing action or
// channel is an error.
func (p *envelopeParams) envelope() (ahpwire.ActionEnvelope, error) {
	env := ahpwire.ActionEnvelope{Channel: p.Channel, ServerSeq: p.ServerSeq, Origin: p.Origin, RejectionReason: p.RejectionReason}
	if p.Channel == "" || len(p.Action) == 0 || string(p.Action) == "null" {
		return env, &ProtocolError{Detail: "action envelope without channel or action"}
	}
	a, err := ahpwire.DecodeAction(p.Action)
	if err != nil {
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(p.Action, &head)
		a = &ahpwire.UnknownAction{Type: head.Type, Raw: append(json.RawMessage(nil), p.Action...)}
		return ahpwire.ActionEnvelope{Channel: env.Channel, ServerSeq: env.ServerSeq, Origin: env.Origin, Action: a, RejectionReason: env.RejectionReason},
			&ProtocolError{Detail: "undecodable " + head.Type + " action delivered as unknown", Err: err}
	}
	env.Action = a
	return env, nil
}

// actionFrame decodes an `action` notification in a single pass (frame,
// params and envelope fields at once); only the action itself is decoded in
// a second step by ahpwire.DecodeAction.
type actionFrame struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params *envelopeParams `json:"params"`
}

// decodeActionFast decodes frame as an action notification when it is one.
// ok is false when the frame is something else (use the generic path).
func decodeActionFast(frame []byte) (p *envelopeParams, ok bool) {
	if !bytes.Contains(frame, actionMarker) {
		return nil, false
	}
	var f actionFrame
	if json.Unmarshal(frame, &f) != nil || f.Method != ahpwire.MethodAction || f.ID != nil || f.Params == nil {
		return nil, false
	}
	return f.Params, true
}
