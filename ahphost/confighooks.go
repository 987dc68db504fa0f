// A session's configuration after creation: an agent whose schema changed
// (agent.ConfigHooks) replaces it, and subscribed clients learn of it
// through session/stateReplaced, the only AHP action that carries a
// schema.

package ahphost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

var _ agent.ConfigHooks = sessionHooks{}

// maxConfigSchema bounds a schema an agent sets (encoded bytes): it goes
// into every snapshot of the session.
const maxConfigSchema = 256 << 10

// errRunEnded is SetConfig's answer once the turn that holds the hooks ended.
var errRunEnded = errors.New("ahphost: the turn has ended")

// SetConfig replaces the session's configuration schema and values while
// the run is live: a new schema goes out as session/stateReplaced, new
// values under the same schema as session/configChanged (replace), and
// nothing is sent when neither changed. Values for
// properties the schema does not list are dropped; the rest must satisfy
// the schema.
func (sh sessionHooks) SetConfig(schema ahpwire.SessionConfigSchema, values map[string]json.RawMessage) error {
	if schema.Type == "" {
		schema.Type = "object"
	}
	if schema.Type != "object" {
		return fmt.Errorf("ahphost: session config schema must be an object, not %q", schema.Type)
	}
	kept := make(map[string]json.RawMessage, len(values))
	for k, v := range values {
		if _, ok := schema.Properties[k]; ok {
			kept[k] = v
		}
	}
	if err := schema.CheckConfig(kept); err != nil {
		return fmt.Errorf("ahphost: new session config: %w", err)
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return fmt.Errorf("ahphost: encoding the session config schema: %w", err)
	}
	if len(raw) > maxConfigSchema {
		return fmt.Errorf("ahphost: session config schema of %d bytes is over the limit of %d", len(raw), maxConfigSchema)
	}
	h := sh.h
	h.mu.Lock()
	defer h.mu.Unlock()
	se := h.st.sessions[sh.session]
	if sh.run.ctx.Err() != nil || se == nil {
		return errRunEnded
	}
	old := se.state.Config
	if old != nil && bytes.Equal(old.Schema, raw) {
		if !sameValues(old.Values, kept) { // same schema: the narrower action carries the values
			h.st.applySession(se, &ahpwire.SessionConfigChanged{Config: kept, Replace: true}, nil)
		}
		return nil
	}
	st := se.state
	st.Config = &ahpwire.ConfigState{Schema: raw, Values: kept}
	h.st.applySession(se, &ahpwire.SessionStateReplaced{State: st}, nil)
	return nil
}

// sameValues reports whether two value sets are equal (encoded).
func sameValues(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}
