package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// configSchema is the session configuration learnt from the agent: modes,
// models and config options of its last session/new (or resume/load).
type configSchema struct {
	schema ahpwire.SessionConfigSchema
	values map[string]json.RawMessage
	kinds  map[string]string // property → "mode" | "model" | "select" | "boolean"
}

// jsonString encodes s as a JSON string value.
func jsonString(s string) json.RawMessage { b, _ := json.Marshal(s); return b }

// learnSchema records the configuration the agent announced.
func (b *Bridge) learnSchema(modes *sdk.SessionModeState, models *modelState, opts []sdk.SessionConfigOption) {
	cs := buildConfigSchema(modes, models, opts)
	if len(cs.kinds) == 0 {
		return
	}
	b.mu.Lock()
	b.schema = cs
	b.mu.Unlock()
}

// buildConfigSchema is the configuration of the announced modes, models
// and options.
func buildConfigSchema(modes *sdk.SessionModeState, models *modelState, opts []sdk.SessionConfigOption) configSchema {
	cs := configSchema{
		schema: ahpwire.SessionConfigSchema{Type: "object", Properties: map[string]ahpwire.SessionConfigPropertySchema{}},
		values: map[string]json.RawMessage{},
		kinds:  map[string]string{},
	}
	add := func(key, kind, title string, enum []string, labels []string, current string) {
		p := ahpwire.SessionConfigPropertySchema{Type: "string", Title: title, SessionMutable: true, Default: jsonString(current)}
		for _, e := range enum {
			p.Enum = append(p.Enum, jsonString(e))
		}
		p.EnumLabels = labels
		cs.schema.Properties[key] = p
		cs.schema.Order = append(cs.schema.Order, key)
		cs.values[key] = jsonString(current)
		cs.kinds[key] = kind
	}
	if modes != nil && len(modes.AvailableModes) > 0 {
		var ids, names []string
		for _, m := range modes.AvailableModes {
			ids, names = append(ids, string(m.Id)), append(names, m.Name)
		}
		add("mode", "mode", "Mode", ids, names, string(modes.CurrentModeId))
	}
	if models != nil && len(models.AvailableModels) > 0 {
		var ids, names []string
		for _, m := range models.AvailableModels {
			ids, names = append(ids, m.ModelID), append(names, m.Name)
		}
		add("model", "model", "Model", ids, names, models.CurrentModelID)
	}
	for _, o := range opts {
		switch {
		case o.Select != nil:
			key := string(o.Select.Id)
			if _, dup := cs.kinds[key]; dup {
				continue
			}
			var ids, names []string
			for _, v := range selectOptions(o.Select.Options) {
				ids, names = append(ids, string(v.Value)), append(names, v.Name)
			}
			add(key, "select", o.Select.Name, ids, names, string(o.Select.CurrentValue))
		case o.Boolean != nil:
			key := string(o.Boolean.Id)
			if _, dup := cs.kinds[key]; dup {
				continue
			}
			v, _ := json.Marshal(o.Boolean.CurrentValue)
			cs.schema.Properties[key] = ahpwire.SessionConfigPropertySchema{Type: "boolean", Title: o.Boolean.Name, SessionMutable: true, Default: v}
			cs.schema.Order = append(cs.schema.Order, key)
			cs.values[key] = v
			cs.kinds[key] = "boolean"
		}
	}
	for k, v := range cs.values { // a current value the agent does not offer (listed)
		cs.schema = listed(cs.schema, k, v)
	}
	return cs
}

// listed returns schema with v among property k's choices: an agent may
// run with a value it does not offer (Codex's adapter runs model "gpt-5.5"
// and offers "gpt-5.5[low]", …), and the host, which takes only a listed
// value, refused the whole configuration for it. The session then says
// what runs. The schema's maps are copied before a change (cs is shared).
func listed(schema ahpwire.SessionConfigSchema, k string, v json.RawMessage) ahpwire.SessionConfigSchema {
	p, ok := schema.Properties[k]
	if !ok || len(p.Enum) == 0 || slices.ContainsFunc(p.Enum, func(e json.RawMessage) bool { return bytes.Equal(e, v) }) {
		return schema
	}
	var label string
	if json.Unmarshal(v, &label) != nil {
		return schema
	}
	props := maps.Clone(schema.Properties)
	p.Enum = append(p.Enum[:len(p.Enum):len(p.Enum)], v)
	if len(p.EnumLabels) > 0 {
		p.EnumLabels = append(p.EnumLabels[:len(p.EnumLabels):len(p.EnumLabels)], label)
	}
	if len(p.EnumDescriptions) > 0 {
		p.EnumDescriptions = append(p.EnumDescriptions[:len(p.EnumDescriptions):len(p.EnumDescriptions)], "")
	}
	props[k] = p
	schema.Properties = props
	return schema
}

// selectOptions flattens grouped and ungrouped select options.
func selectOptions(o sdk.SessionConfigSelectOptions) []sdk.SessionConfigSelectOption {
	switch {
	case o.Ungrouped != nil:
		return *o.Ungrouped
	case o.Grouped != nil:
		var out []sdk.SessionConfigSelectOption
		for _, g := range *o.Grouped {
			out = append(out, g.Options...)
		}
		return out
	}
	return nil
}

// currentValues returns the values a new session starts with (strings, as
// the host's Turn.Config carries them).
func currentValues(modes *sdk.SessionModeState, models *modelState, opts []sdk.SessionConfigOption) map[string]string {
	out := map[string]string{}
	if modes != nil {
		out["mode"] = string(modes.CurrentModeId)
	}
	if models != nil {
		out["model"] = models.CurrentModelID
	}
	for _, o := range opts {
		switch {
		case o.Select != nil:
			out[string(o.Select.Id)] = string(o.Select.CurrentValue)
		case o.Boolean != nil:
			out[string(o.Boolean.Id)] = fmt.Sprint(o.Boolean.CurrentValue)
		}
	}
	return out
}

// ResolveConfig returns the configuration learnt from the agent (empty
// until its first session) with the given values applied.
func (b *Bridge) ResolveConfig(p ahpwire.ResolveSessionConfigParams) (ahpwire.ResolveSessionConfigResult, error) {
	b.mu.Lock()
	cs := b.schema
	b.mu.Unlock()
	if cs.kinds == nil {
		b.warmUp(p.WorkingDirectory)
	}
	res := ahpwire.ResolveSessionConfigResult{Schema: cs.schema, Values: map[string]json.RawMessage{}}
	if res.Schema.Type == "" {
		res.Schema = ahpwire.SessionConfigSchema{Type: "object", Properties: map[string]ahpwire.SessionConfigPropertySchema{}}
	}
	for k, v := range cs.values {
		res.Values[k] = v
	}
	for k, v := range p.Config {
		if _, ok := res.Schema.Properties[k]; !ok {
			return res, fmt.Errorf("unknown configuration property %q", k)
		}
		res.Values[k] = v
	}
	return res, nil
}

// ConfigCompletions lists a property's values matching the query.
func (b *Bridge) ConfigCompletions(p ahpwire.SessionConfigCompletionsParams) ([]ahpwire.SessionConfigValueItem, error) {
	b.mu.Lock()
	prop, ok := b.schema.schema.Properties[p.Property]
	b.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown configuration property %q", p.Property)
	}
	var out []ahpwire.SessionConfigValueItem
	for i, e := range prop.Enum {
		var v string
		_ = json.Unmarshal(e, &v)
		label := v
		if i < len(prop.EnumLabels) {
			label = prop.EnumLabels[i]
		}
		if p.Query == "" || strings.Contains(strings.ToLower(label+" "+v), strings.ToLower(p.Query)) {
			out = append(out, ahpwire.SessionConfigValueItem{Value: v, Label: label})
		}
	}
	return out, nil
}

// applyConfig sends the values that changed since they were last applied:
// session/set_mode, session/set_model or session/set_config_option.
func (b *Bridge) applyConfig(ctx context.Context, p *proc, s *session, cfg map[string]string) error {
	b.mu.Lock()
	kinds := b.schema.kinds
	b.mu.Unlock()
	for key, want := range cfg {
		s.mu.Lock()
		cur, known := s.applied[key]
		s.mu.Unlock()
		kind := kinds[key]
		if kind == "" || (known && cur == want) {
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, b.cfg.RequestTimeout)
		var err error
		sid := sdk.SessionId(s.acpID)
		switch kind {
		case "mode":
			_, err = p.conn.SetSessionMode(rctx, sdk.SetSessionModeRequest{SessionId: sid, ModeId: sdk.SessionModeId(want)})
		case "model":
			err = p.legacy.setModel(rctx, sid, want)
		case "select":
			_, err = p.conn.SetSessionConfigOption(rctx, sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
				SessionId: sid, ConfigId: sdk.SessionConfigId(key), Value: sdk.SessionConfigValueId(want)}})
		case "boolean":
			_, err = p.conn.SetSessionConfigOption(rctx, sdk.SetSessionConfigOptionRequest{Boolean: &sdk.SetSessionConfigOptionBoolean{
				SessionId: sid, ConfigId: sdk.SessionConfigId(key), Type: "boolean", Value: want == "true"}})
		}
		cancel()
		if err != nil {
			return fmt.Errorf("set %s to %q: %w", key, want, err)
		}
		s.mu.Lock()
		s.applied[key] = want
		s.mu.Unlock()
	}
	return nil
}

// ApplyConfig applies a changed configuration at once when the session's
// ACP session is live (else the next turn applies it).
func (b *Bridge) ApplyConfig(sessionURI string, values map[string]string) {
	b.mu.Lock()
	s := b.sessions[sessionURI]
	p := b.proc
	b.mu.Unlock()
	if s == nil || p == nil || !p.alive() {
		return
	}
	b.mu.Lock()
	live := s.acpID != "" && !s.stale
	b.mu.Unlock()
	if !live {
		return
	}
	if err := b.applyConfig(b.ctx, p, s, values); err != nil {
		b.log.Warn("applying the session configuration", "session", sessionURI, "err", err)
	}
}
