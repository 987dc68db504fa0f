package ahpwire

import (
	"bytes"
	"encoding/json"
	"errors"
)

// AHP 1.1 reconnect: per-channel replay cursors.

// Channel recovery kinds of a 1.1 ReconnectResult.
const (
	RecoveryKindReplay   = "replay"
	RecoveryKindSnapshot = "snapshot"
	RecoveryKindMissing  = "missing"
)

// ChannelReplayCursor is one subscription of a 1.1 reconnect: the
// serverSeq the client last fully applied on that channel (or the fromSeq
// of the snapshot that initialized it; 0 without a baseline).
type ChannelReplayCursor struct {
	Channel           string `json:"channel"`
	LastSeenServerSeq uint64 `json:"lastSeenServerSeq"`
}

// ChannelRecovery is one channel's outcome in a 1.1 reconnect: Kind
// "replay" carries Actions (possibly empty), "snapshot" carries Snapshot,
// "missing" nothing.
type ChannelRecovery struct {
	Kind     string           `json:"kind"`
	Channel  string           `json:"channel"`
	Actions  []ActionEnvelope `json:"actions,omitempty"`
	Snapshot *Snapshot        `json:"snapshot,omitempty"`
}

// MarshalJSON writes a replay's actions as an array even when empty.
func (c ChannelRecovery) MarshalJSON() ([]byte, error) {
	type plain ChannelRecovery
	if c.Kind == RecoveryKindReplay && c.Actions == nil {
		c.Actions = []ActionEnvelope{}
	}
	if c.Kind == RecoveryKindReplay {
		return json.Marshal(struct {
			Kind    string           `json:"kind"`
			Channel string           `json:"channel"`
			Actions []ActionEnvelope `json:"actions"`
		}{c.Kind, c.Channel, c.Actions})
	}
	return json.Marshal(plain(c))
}

type reconnectChannelsWire struct {
	Channels     []ChannelRecovery `json:"channels"`
	Capabilities *Capabilities     `json:"capabilities,omitempty"`
}

// reconnectParamsWire is ReconnectParams with subscriptions kept raw, to
// tell the 1.0 shape (URIs) from the 1.1 shape (cursors).
type reconnectParamsWire struct {
	Channel           string          `json:"channel"`
	ClientID          string          `json:"clientId"`
	LastSeenServerSeq *uint64         `json:"lastSeenServerSeq,omitempty"`
	Subscriptions     json.RawMessage `json:"subscriptions"`
	Capabilities      *Capabilities   `json:"capabilities,omitempty"`
	Meta              Meta            `json:"_meta,omitempty"`
}

// MarshalJSON writes the 1.1 shape when Cursors is set, else the 1.0 one.
func (p ReconnectParams) MarshalJSON() ([]byte, error) {
	w := reconnectParamsWire{Channel: p.Channel, ClientID: p.ClientID, Capabilities: p.Capabilities, Meta: p.Meta}
	var err error
	if p.Cursors != nil {
		w.Subscriptions, err = json.Marshal(p.Cursors)
	} else {
		last := p.LastSeenServerSeq
		w.LastSeenServerSeq = &last
		subs := p.Subscriptions
		if subs == nil {
			subs = []string{}
		}
		w.Subscriptions, err = json.Marshal(subs)
	}
	if err != nil {
		return nil, err //nolint:wrapcheck // encoding/json's own message
	}
	return json.Marshal(w)
}

// errReconnectShape is a subscriptions array mixing URIs and cursors.
var errReconnectShape = errors.New("ahpwire: reconnect subscriptions must be all URIs (1.0) or all cursors (1.1)")

// UnmarshalJSON accepts both shapes: subscriptions of URIs (with a
// connection-wide lastSeenServerSeq) or of {channel, lastSeenServerSeq}.
func (p *ReconnectParams) UnmarshalJSON(b []byte) error {
	var w reconnectParamsWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err //nolint:wrapcheck // encoding/json's own message
	}
	*p = ReconnectParams{Channel: w.Channel, ClientID: w.ClientID, Capabilities: w.Capabilities, Meta: w.Meta}
	if w.LastSeenServerSeq != nil {
		p.LastSeenServerSeq = *w.LastSeenServerSeq
	}
	raw := bytes.TrimSpace(w.Subscriptions)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return err //nolint:wrapcheck // encoding/json's own message
	}
	for _, it := range items {
		it = bytes.TrimSpace(it)
		switch {
		case len(it) > 0 && it[0] == '{':
			if p.Subscriptions != nil {
				return errReconnectShape
			}
			var c ChannelReplayCursor
			if err := json.Unmarshal(it, &c); err != nil {
				return err //nolint:wrapcheck // encoding/json's own message
			}
			p.Cursors = append(p.Cursors, c)
		default:
			if p.Cursors != nil {
				return errReconnectShape
			}
			var s string
			if err := json.Unmarshal(it, &s); err != nil {
				return err //nolint:wrapcheck // encoding/json's own message
			}
			p.Subscriptions = append(p.Subscriptions, s)
		}
	}
	if p.Cursors == nil && p.Subscriptions == nil {
		p.Subscriptions = []string{}
	}
	return nil
}
