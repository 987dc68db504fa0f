package ahpwire

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The JSON of a chat's state is mostly its turns' text. encoding/json
// checks and compacts what a MarshalJSON method returns, at every level:
// a state's answer text was written once and scanned twice more (by the
// turn holding its part, then by the state holding the turn), so that a
// durable host's snapshot of a long chat took ~90 ms for 5 MB. The turns
// and their parts are written here into one buffer instead, and spliced
// into the rest of the state, which encoding/json still writes.

// chatStateSansTurns is ChatState with "turns" left out of its JSON;
// ChatState converts to it (a field added to one and not the other does
// not compile).
type chatStateSansTurns struct {
	Resource           string             `json:"resource"`
	Title              string             `json:"title"`
	Description        string             `json:"description,omitempty"`
	Status             SessionStatus      `json:"status"`
	Activity           string             `json:"activity,omitempty"`
	ModifiedAt         string             `json:"modifiedAt"`
	Changes            *ChangeStats       `json:"changes,omitempty"`
	Origin             *ChatOrigin        `json:"origin,omitempty"`
	ParentChat         string             `json:"parentChat,omitempty"`
	Movable            *bool              `json:"movable,omitempty"`
	Interactivity      string             `json:"interactivity,omitempty"`
	WorkingDirectories []string           `json:"workingDirectories,omitempty"`
	Changesets         []Changeset        `json:"changesets,omitempty"`
	BackgroundWork     []BackgroundWork   `json:"backgroundWork,omitempty"`
	Canvases           json.RawMessage    `json:"canvases,omitempty"`
	Turns              []Turn             `json:"-"`
	TurnsNextCursor    string             `json:"turnsNextCursor,omitempty"`
	ActiveTurn         *ActiveTurn        `json:"activeTurn,omitempty"`
	SteeringMessage    *PendingMessage    `json:"steeringMessage,omitempty"`
	SteeringMessages   []PendingMessage   `json:"steeringMessages,omitempty"`
	QueuedMessages     []PendingMessage   `json:"queuedMessages,omitempty"`
	Draft              *ChatMessage       `json:"draft,omitempty"`
	InputRequests      []ChatInputRequest `json:"inputRequests,omitempty"`
	Meta               Meta               `json:"_meta,omitempty"`
}

// turnSansParts is Turn with "responseParts" left out of its JSON.
type turnSansParts struct {
	ID            string         `json:"id"`
	StartedAt     string         `json:"startedAt,omitempty"`
	Duration      *int64         `json:"duration,omitempty"`
	Message       ChatMessage    `json:"message"`
	ResponseParts []ResponsePart `json:"-"`
	Usage         *UsageInfo     `json:"usage,omitempty"`
	State         string         `json:"state"`
	Error         *ErrorInfo     `json:"error,omitempty"`
}

// MarshalJSON writes the state with turns always an array.
func (c ChatState) MarshalJSON() ([]byte, error) {
	rest, err := json.Marshal(chatStateSansTurns(c))
	if err != nil {
		return nil, err
	}
	n := len(rest) + 16
	for i := range c.Turns {
		n += turnSize(&c.Turns[i])
	}
	b := make([]byte, 0, n)
	b = append(b, rest[:len(rest)-1]...) // rest is an object with at least "resource"
	b = append(b, `,"turns":[`...)
	for i := range c.Turns {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendTurn(b, &c.Turns[i]); err != nil {
			return nil, err
		}
	}
	return append(b, "]}"...), nil
}

// MarshalJSON writes the turn with responseParts always an array.
func (t Turn) MarshalJSON() ([]byte, error) {
	return appendTurn(make([]byte, 0, turnSize(&t)), &t)
}

// appendTurn appends turn t's JSON to b.
func appendTurn(b []byte, t *Turn) ([]byte, error) {
	rest, err := json.Marshal(turnSansParts(*t))
	if err != nil {
		return nil, fmt.Errorf("ahpwire: turn %.100s: %w", t.ID, err)
	}
	b = append(b, rest[:len(rest)-1]...)
	b = append(b, `,"responseParts":`...)
	if b, err = appendParts(b, t.ResponseParts); err != nil {
		return nil, fmt.Errorf("ahpwire: turn %.100s: %w", t.ID, err)
	}
	return append(b, '}'), nil
}

// appendParts appends parts as a JSON array ([] when empty).
func appendParts(b []byte, parts []ResponsePart) ([]byte, error) {
	b = append(b, '[')
	for i := range parts {
		if i > 0 {
			b = append(b, ',')
		}
		p := &parts[i]
		if p.Kind == PartMarkdown || p.Kind == PartReasoning { // the bulk: written here, once
			b = append(b, `{"kind":`...)
			b = appendJSONString(b, p.Kind)
			b = append(b, `,"id":`...)
			b = appendJSONString(b, p.ID)
			b = append(b, `,"content":`...)
			b = appendJSONString(b, p.Content)
			b = append(b, '}')
			continue
		}
		pb, err := p.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if len(p.Raw) > 0 { // an unknown kind as a peer sent it: made compact and checked, as encoding/json would
			if pb, err = compactJSON(pb); err != nil {
				return nil, err
			}
		}
		b = append(b, pb...)
	}
	return append(b, ']'), nil
}

// compactJSON returns b compacted, or an error when it is not JSON.
func compactJSON(b []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return nil, fmt.Errorf("ahpwire: response part: %w", err)
	}
	return out.Bytes(), nil
}

// turnSize estimates turn t's JSON size (its parts' text).
func turnSize(t *Turn) int {
	n := 256 + len(t.Message.Text)
	for i := range t.ResponseParts {
		n += 64 + len(t.ResponseParts[i].Content) + len(t.ResponseParts[i].Content)/8
	}
	return n
}
