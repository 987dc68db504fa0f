package dialog

import (
	"encoding/json"
	"net/url"

	"github.com/ahptui/ahptui/ahpwire"
)

// The session config form's messages. The form emits the questions for
// the host (ConfigDirMsg, ConfigQueryMsg, ConfigSubmitMsg, ConfigAgentMsg)
// and the settings it changed (ConfigChangeMsg); the root asks the host
// and hands the answers (ConfigResolvedMsg, ConfigValuesMsg,
// ConfigDirCheckedMsg, ConfigCheckedMsg) back to the form.

// ConfigResolvedMsg is the host's schema for a new session (Err: the host
// has none or failed; the session is then created without a form).
type ConfigResolvedMsg struct {
	Provider string
	Dir      string
	Res      ahpwire.ResolveSessionConfigResult
	Err      error
}

// ConfigValuesMsg carries value completions of one property.
type ConfigValuesMsg struct {
	Prop  string
	Query string // the filter the values answer ("" = all)
	Items []ahpwire.SessionConfigValueItem
	Err   error
}

// ConfigCheckedMsg is the host's verdict on the filled form.
type ConfigCheckedMsg struct {
	Provider string
	Dir      string
	Values   map[string]json.RawMessage
	Err      error
}

// ConfigDirMsg asks the root to re-resolve the draft for a new working
// directory; ConfigDirCheckedMsg is the host's answer.
type (
	ConfigDirMsg struct {
		Provider, Dir string
	}
	ConfigDirCheckedMsg struct {
		Dir string
		Err error
	}
)

// ConfigQueryMsg asks the root for a dynamic property's values matching
// Query ("" = all of them).
type ConfigQueryMsg struct {
	Provider, Dir, Prop, Query string
}

// ConfigSubmitMsg asks the root to check the values with the host and
// create the session.
type ConfigSubmitMsg struct {
	Provider string
	Dir      string
	Values   map[string]json.RawMessage
}

// ConfigAgentMsg asks the root to resolve the new-session form again for
// another agent (the user changed the form's agent row).
type ConfigAgentMsg struct {
	Provider string
	Dir      string
}

// ConfigChangeMsg asks the root to dispatch session/configChanged with
// the settings form's values.
type ConfigChangeMsg struct {
	Values map[string]json.RawMessage
}

// DirPath shows a file: URI as a path.
func DirPath(uri string) string {
	if u, err := url.Parse(uri); err == nil && u.Scheme == "file" {
		return u.Path
	}
	return uri
}
