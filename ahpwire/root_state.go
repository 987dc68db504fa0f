package ahpwire

import (
	"encoding/json"
	"fmt"
)

// SessionModelInfo describes a model an agent offers.
type SessionModelInfo struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
	Name     string `json:"name"`
	// Vendor is the model's vendor as the provider reports it (1.1).
	Vendor           string          `json:"vendor,omitempty"`
	MaxContextWindow *int64          `json:"maxContextWindow,omitempty"`
	MaxOutputTokens  *int64          `json:"maxOutputTokens,omitempty"`
	MaxPromptTokens  *int64          `json:"maxPromptTokens,omitempty"`
	SupportsVision   *bool           `json:"supportsVision,omitempty"`
	PolicyState      string          `json:"policyState,omitempty"`
	ConfigSchema     json.RawMessage `json:"configSchema,omitempty"`
	Meta             Meta            `json:"_meta,omitempty"`
}

// AgentCapabilities are presence flags of an agent; values kept raw.
type AgentCapabilities struct {
	MultipleChats              json.RawMessage `json:"multipleChats,omitempty"`
	MultipleWorkingDirectories json.RawMessage `json:"multipleWorkingDirectories,omitempty"`
}

// AgentInfo describes an agent provider on the host.
type AgentInfo struct {
	Provider           string                      `json:"provider"`
	DisplayName        string                      `json:"displayName"`
	Description        string                      `json:"description"`
	Models             []SessionModelInfo          `json:"models"`
	ProtectedResources []ProtectedResourceMetadata `json:"protectedResources,omitempty"`
	Customizations     []json.RawMessage           `json:"customizations,omitempty"`
	Capabilities       *AgentCapabilities          `json:"capabilities,omitempty"`
}

type agentInfoAlias AgentInfo

// MarshalJSON writes the agent with models always an array.
func (a AgentInfo) MarshalJSON() ([]byte, error) {
	if a.Models == nil {
		a.Models = []SessionModelInfo{}
	}
	return json.Marshal(agentInfoAlias(a))
}

// RootState is the state of the `ahp-root://` channel. Terminals are kept raw.
type RootState struct {
	Agents         []AgentInfo       `json:"agents"`
	ActiveSessions *int64            `json:"activeSessions,omitempty"`
	Terminals      []json.RawMessage `json:"terminals,omitempty"`
	Config         *ConfigState      `json:"config,omitempty"`
	Meta           Meta              `json:"_meta,omitempty"`
}

type rootStateAlias RootState

// MarshalJSON writes the state with agents always an array.
func (r RootState) MarshalJSON() ([]byte, error) {
	if r.Agents == nil {
		r.Agents = []AgentInfo{}
	}
	return json.Marshal(rootStateAlias(r))
}

// DecodeRootState decodes a RootState (e.g. Snapshot.State).
func DecodeRootState(raw []byte) (RootState, error) {
	var r RootState
	if err := json.Unmarshal(raw, &r); err != nil {
		return RootState{}, fmt.Errorf("ahpwire: root state: %w", err)
	}
	return r, nil
}
