package acp

import (
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// The agent changes its own configuration: a new set of options
// (config_option_update) or another current mode (current_mode_update,
// e.g. after leaving plan mode). The session's values are updated here, so
// the next turn does not set the old value back, and the host is told
// through the running turn's agent.ConfigHooks, so subscribed clients see
// the new schema or values (F4). Outside a turn only the bridge learns it.

// optionsChanged takes the agent's new options: mode and model stay, the
// options are replaced; new sessions get the new schema too.
func (b *Bridge) optionsChanged(s *session, tm *turnMap, opts []sdk.SessionConfigOption) {
	b.mu.Lock()
	cur := b.schema
	b.mu.Unlock()
	next := configSchema{values: map[string]json.RawMessage{}, kinds: map[string]string{}}
	next.schema.Type = "object"
	next.schema.Properties = map[string]ahpwire.SessionConfigPropertySchema{}
	for _, k := range cur.schema.Order {
		if kind := cur.kinds[k]; kind == "mode" || kind == "model" {
			next.schema.Properties[k], next.values[k], next.kinds[k] = cur.schema.Properties[k], cur.values[k], kind
			next.schema.Order = append(next.schema.Order, k)
		}
	}
	add := buildConfigSchema(nil, nil, opts)
	for _, k := range add.schema.Order {
		if _, dup := next.kinds[k]; dup {
			continue
		}
		next.schema.Properties[k], next.values[k], next.kinds[k] = add.schema.Properties[k], add.values[k], add.kinds[k]
		next.schema.Order = append(next.schema.Order, k)
	}
	b.mu.Lock()
	b.schema = next
	b.mu.Unlock()
	applied := currentValues(nil, nil, opts)
	s.mu.Lock()
	for k, v := range applied {
		s.applied[k] = v
	}
	s.mu.Unlock()
	b.reportConfig(s, tm)
}

// modeChanged records the agent's new current mode.
func (b *Bridge) modeChanged(s *session, tm *turnMap, mode string) {
	s.mu.Lock()
	s.applied["mode"] = mode
	s.mu.Unlock()
	b.reportConfig(s, tm)
}

// reportConfig hands the session's schema and current values to the host
// through the running turn (nothing without one).
func (b *Bridge) reportConfig(s *session, tm *turnMap) {
	if tm == nil {
		return
	}
	ch, ok := tm.t.SessionHooks.(agent.ConfigHooks)
	if !ok {
		return
	}
	b.mu.Lock()
	cs := b.schema
	b.mu.Unlock()
	if len(cs.kinds) == 0 {
		return
	}
	values := make(map[string]json.RawMessage, len(cs.values))
	schema := cs.schema
	s.mu.Lock()
	for k, def := range cs.values {
		values[k] = def
		if v, ok := s.applied[k]; ok {
			values[k] = appliedJSON(cs.kinds[k], v)
			schema = listed(schema, k, values[k])
		}
	}
	s.mu.Unlock()
	if err := ch.SetConfig(schema, values); err != nil {
		b.log.Warn("the host refused the agent's configuration", "session", s.uri, "err", err)
	}
}

// appliedJSON is an applied value (a string) as the JSON value of its kind.
func appliedJSON(kind, v string) json.RawMessage {
	if kind == "boolean" && (v == "true" || v == "false") {
		return json.RawMessage(v)
	}
	return jsonString(v)
}
