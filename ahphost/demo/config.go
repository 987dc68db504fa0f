package demo

import (
	"encoding/json"
	"fmt"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// "/demo config" changes the session's configuration schema after the
// session was created, as an agent whose options change does (ACP
// config_option_update): it adds a "Reasoning effort" setting, and
// "/demo config reset" takes it away again. The host sends the new schema
// to subscribed clients (agent.ConfigHooks, session/stateReplaced), so F4
// shows it at once.

// ConfigEffort is the setting /demo config adds.
const ConfigEffort = "effort"

// Values of the effort setting.
const (
	EffortLow    = "low"
	EffortMedium = "medium"
	EffortHigh   = "high"
)

// extendedConfig is the demo's schema with the effort setting.
func extendedConfig() ahpwire.SessionConfigSchema {
	s := ConfigSchema()
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	s.Properties[ConfigEffort] = ahpwire.SessionConfigPropertySchema{Type: "string", Title: "Reasoning effort",
		Description: "How long the agent thinks before it answers (added by /demo config)",
		Default:     str(EffortMedium), Enum: []json.RawMessage{str(EffortLow), str(EffortMedium), str(EffortHigh)},
		EnumLabels:       []string{"Low", "Medium", "High"},
		EnumDescriptions: []string{"answers at once", "thinks a little", "thinks at length"},
		SessionMutable:   true}
	s.Order = append(s.Order, ConfigEffort)
	return s
}

// config runs "/demo config [reset]".
func (r *run) config() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("config", r.cmd.word, r.cmd.bad))
	}
	ch, ok := r.t.SessionHooks.(agent.ConfigHooks)
	if !ok {
		return r.answerOnly("This host cannot change a session's settings after it was created, so the demo cannot show it here.\n")
	}
	schema := ConfigSchema()
	if r.cmd.n == 0 {
		schema = extendedConfig()
	}
	values := map[string]json.RawMessage{}
	for _, k := range schema.Keys() {
		values[k] = schema.Properties[k].Default
		if v := r.configString(k); v != "" {
			if b, err := json.Marshal(v); err == nil && schema.Properties[k].CheckValue(b) == nil {
				values[k] = b
			}
		}
	}
	if err := ch.SetConfig(schema, values); err != nil {
		return r.answerOnly(fmt.Sprintf("The host refused the new settings: %s.\n", err))
	}
	text := "I added a setting to this session: **Reasoning effort** (low, medium, high). Open the settings " +
		"(**F4**) to see and change it; `/demo config reset` removes it again.\n"
	if r.cmd.n == 1 {
		text = "I removed the **Reasoning effort** setting: the session is back to its model and mode (**F4**).\n"
	}
	return r.answerOnly(text)
}
