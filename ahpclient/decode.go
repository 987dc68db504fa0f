package ahpclient

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/jsonscan"
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

// streamAction is the shape shared by chat/delta and chat/reasoning, which
// make up nearly all traffic during a turn; they are decoded in one pass
// (DecodeAction needs two). TestStreamActionFastPathMatchesDecodeAction
// pins the equivalence.
type streamAction struct {
	Type    string       `json:"type"`
	TurnID  string       `json:"turnId"`
	PartID  string       `json:"partId"`
	Content string       `json:"content"`
	Meta    ahpwire.Meta `json:"_meta"`
}

var (
	deltaMarker     = []byte(`"type":"` + ahpwire.ActionChatDelta + `"`)
	reasoningMarker = []byte(`"type":"` + ahpwire.ActionChatReasoning + `"`)
)

// decodeStreamAction decodes raw when it is a chat/delta or chat/reasoning
// action; ok is false otherwise (or when it is malformed).
func decodeStreamAction(raw []byte) (ahpwire.Action, bool) {
	if !bytes.Contains(raw, deltaMarker) && !bytes.Contains(raw, reasoningMarker) {
		return nil, false
	}
	if a, ok := scanStreamAction(raw); ok {
		return a, true
	}
	var s streamAction
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return s.action()
}

// action is s as the action its type names; ok is false for any other type.
func (s *streamAction) action() (ahpwire.Action, bool) {
	switch s.Type {
	case ahpwire.ActionChatDelta:
		return &ahpwire.ChatDelta{TurnID: s.TurnID, PartID: s.PartID, Content: s.Content, Meta: s.Meta}, true
	case ahpwire.ActionChatReasoning:
		return &ahpwire.ChatReasoning{TurnID: s.TurnID, PartID: s.PartID, Content: s.Content, Meta: s.Meta}, true
	}
	return nil, false
}

// header returns the envelope without its action (which stays raw) after
// checking that both channel and action are present.
func (p *envelopeParams) header() (ahpwire.ActionEnvelope, error) {
	env := ahpwire.ActionEnvelope{Channel: p.Channel, ServerSeq: p.ServerSeq, Origin: p.Origin, RejectionReason: p.RejectionReason}
	if p.Channel == "" || len(p.Action) == 0 || string(p.Action) == "null" {
		return env, &ProtocolError{Detail: "action envelope without channel or action"}
	}
	return env, nil
}

// envelope is header plus the decoded action (see decodeActionTolerant).
func (p *envelopeParams) envelope() (ahpwire.ActionEnvelope, error) {
	env, err := p.header()
	if err != nil {
		return env, err
	}
	env.Action, err = decodeActionTolerant(p.Action)
	return env, err
}

// decodeActionSafely is decodeActionTolerant on the consumer's goroutine,
// where a panic would crash the application: a recovered panic delivers
// the action as *ahpwire.UnknownAction with a *ProtocolError.
func decodeActionSafely(raw []byte) (a ahpwire.Action, err error) {
	defer func() {
		if r := recover(); r != nil {
			a = &ahpwire.UnknownAction{Raw: append(json.RawMessage(nil), raw...)}
			err = &ProtocolError{Detail: fmt.Sprintf("internal error (panic) decoding a %d-byte action: %v", len(raw), r)}
		}
	}()
	return decodeActionTolerant(raw)
}

// decodeActionTolerant decodes an action: a known action type whose payload
// this build cannot decode (an older or newer shape) comes back as
// *ahpwire.UnknownAction together with the error, so that an envelope is
// never lost; the consumer ignores it like any unknown type.
func decodeActionTolerant(raw []byte) (ahpwire.Action, error) {
	if a, ok := decodeStreamAction(raw); ok {
		return a, nil
	}
	a, err := ahpwire.DecodeAction(raw)
	if err == nil {
		return a, nil
	}
	var head struct {
		Type string `json:"type"`
	}
	if herr := json.Unmarshal(raw, &head); herr != nil {
		// Not even an object with a string type: an untyped unknown action.
		return &ahpwire.UnknownAction{Raw: append(json.RawMessage(nil), raw...)},
			&ProtocolError{Detail: "undecodable untyped action delivered as unknown", Err: err}
	}
	return &ahpwire.UnknownAction{Type: head.Type, Raw: append(json.RawMessage(nil), raw...)},
		&ProtocolError{Detail: "undecodable " + head.Type + " action delivered as unknown", Err: err}
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
	if p, ok := scanActionFrame(frame); ok {
		return p, true
	}
	var f actionFrame
	if json.Unmarshal(frame, &f) != nil || f.Method != ahpwire.MethodAction || f.ID != nil || f.Params == nil ||
		jsonscan.CheckEnvelopeKeys(frame) != nil { // duplicate or case-folded envelope members
		return nil, false
	}
	return f.Params, true
}
