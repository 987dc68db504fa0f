package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// configPollEvery is how often exec asks again for an agent's
// configuration while the host learns it (the agent starting).
const configPollEvery = 200 * time.Millisecond

// wantedConfig is exec's --mode and --model as session configuration
// properties ("mode", "model"), nil when neither was given.
func (o execOpts) wantedConfig() map[string]string {
	want := map[string]string{}
	if o.mode != "" {
		want["mode"] = o.mode
	}
	if o.model != "" {
		want["model"] = o.model
	}
	if len(want) == 0 {
		return nil
	}
	return want
}

// resolveWanted turns --mode and --model into configuration values the
// agent announced: it asks the host for the schema until the agent told it
// (a first session starts the agent), then checks each value against the
// property's choices (an id, or its label, any case).
func (r *turnRun) resolveWanted(ctx context.Context, want map[string]string) (map[string]json.RawMessage, error) {
	p := ahpwire.ResolveSessionConfigParams{Provider: r.o.agent}
	if cwd := r.o.cwd; cwd != "" {
		if abs, err := filepath.Abs(cwd); err == nil {
			p.WorkingDirectory = (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
		}
	}
	for {
		res, err := r.h.c.ResolveSessionConfig(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("the agent's configuration: %w", err)
		}
		if len(res.Schema.Properties) > 0 {
			return pickConfig(res.Schema, want)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("the agent did not tell its modes and models: %w", ctx.Err())
		case <-time.After(configPollEvery):
		}
	}
}

// pickConfig checks the wanted values against the schema's choices.
func pickConfig(schema ahpwire.SessionConfigSchema, want map[string]string) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for key, v := range want {
		prop, ok := schema.Properties[key]
		if !ok {
			return nil, fmt.Errorf("--%s: this agent offers no %s to choose", key, key)
		}
		var ids []string
		found := ""
		for i, e := range prop.Enum {
			var id string
			if json.Unmarshal(e, &id) != nil {
				continue
			}
			ids = append(ids, id)
			label := ""
			if i < len(prop.EnumLabels) {
				label = prop.EnumLabels[i]
			}
			if found == "" && (id == v || strings.EqualFold(id, v) || (label != "" && strings.EqualFold(label, v))) {
				found = id
			}
		}
		if found == "" && len(prop.Enum) > 0 {
			return nil, fmt.Errorf("--%s: %q is not one of this agent's: %s", key, v, strings.Join(ids, ", "))
		}
		if found == "" {
			found = v
		}
		b, _ := json.Marshal(found)
		out[key] = b
	}
	return out, nil
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
