package ahpstate

import "github.com/ahptui/ahptui/ahpwire"

// validateConfigChange checks session/configChanged against the session's
// config schema: every changed property must exist, be changeable after
// creation (sessionMutable, not readOnly) and hold a valid value; a replace
// must leave a complete, valid configuration.
func validateConfigChange(s ahpwire.SessionState, a *ahpwire.SessionConfigChanged) error {
	if s.Config == nil {
		return reject("this session has no configuration")
	}
	if len(a.Config) == 0 && !a.Replace {
		return reject("empty configuration change")
	}
	schema, err := ahpwire.DecodeSessionConfigSchema(s.Config.Schema)
	if err != nil {
		return reject("the session's configuration schema is unreadable")
	}
	for k, v := range a.Config {
		p, ok := schema.Properties[k]
		if !ok {
			return reject("unknown setting %q", k)
		}
		if string(s.Config.Values[k]) == string(v) {
			continue
		}
		if p.ReadOnly || !p.SessionMutable {
			return reject("setting %q cannot be changed after the session was created", k)
		}
		if err := p.CheckValue(v); err != nil {
			return reject("setting %q: %v", k, err)
		}
	}
	if a.Replace {
		if err := schema.CheckConfig(a.Config); err != nil {
			return reject("%v", err)
		}
	}
	return nil
}
