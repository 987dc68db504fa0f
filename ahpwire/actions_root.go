package ahpwire

import "encoding/json"

// RootAgentsChanged replaces the agent list.
type RootAgentsChanged struct {
	Agents []AgentInfo `json:"agents"`
}

// RootActiveSessionsChanged sets the active session count.
type RootActiveSessionsChanged struct {
	ActiveSessions int64 `json:"activeSessions"`
}

// RootTerminalsChanged replaces the terminal catalogue (kept raw).
type RootTerminalsChanged struct {
	Terminals []json.RawMessage `json:"terminals"`
}

// RootConfigChanged merges (or with Replace, replaces) root config values.
type RootConfigChanged struct {
	Config  map[string]json.RawMessage `json:"config"`
	Replace bool                       `json:"replace,omitempty"`
}
