package ahpwire

import (
	"encoding/json"
	"fmt"
)

// ResourceWatchScheme is the scheme of resource-watch channels
// (`ahp-resource-watch:/<id>`), returned by createResourceWatch.
const ResourceWatchScheme = "ahp-resource-watch:"

// MethodCreateResourceWatch starts a file watch; the caller subscribes to
// the returned channel and unsubscribes to release it.
const MethodCreateResourceWatch = "createResourceWatch"

// ActionResourceWatchChanged reports a batch of changes under a watch.
const ActionResourceWatchChanged = "resourceWatch/changed"

// Resource change kinds (ResourceChange.Type).
const (
	ResourceAdded   = "added"
	ResourceUpdated = "updated"
	ResourceDeleted = "deleted"
)

func init() {
	actionRegistry[ActionResourceWatchChanged] = func() Action { return new(ResourceWatchChanged) }
}

// StringList is `{items: string[]}` (wrapped for forward compatibility).
type StringList struct {
	Items []string `json:"items"`
}

// CreateResourceWatchParams are the params of createResourceWatch (on
// ahp-root://). Excludes and Includes are globs relative to URI.
type CreateResourceWatchParams struct {
	Channel   string      `json:"channel"`
	URI       string      `json:"uri"`
	Recursive bool        `json:"recursive,omitempty"`
	Excludes  *StringList `json:"excludes,omitempty"`
	Includes  *StringList `json:"includes,omitempty"`
}

// CreateResourceWatchResult names the watch channel.
type CreateResourceWatchResult struct {
	Channel string `json:"channel"`
}

// ResourceWatchState is the state of a watch channel: what it watches. The
// reducer keeps no history of the changes it reports.
type ResourceWatchState struct {
	Root      string      `json:"root"`
	Recursive bool        `json:"recursive"`
	Excludes  *StringList `json:"excludes,omitempty"`
	Includes  *StringList `json:"includes,omitempty"`
}

// DecodeResourceWatchState decodes a ResourceWatchState snapshot.
func DecodeResourceWatchState(raw []byte) (ResourceWatchState, error) {
	var s ResourceWatchState
	if err := json.Unmarshal(raw, &s); err != nil {
		return ResourceWatchState{}, fmt.Errorf("ahpwire: resource watch state: %w", err)
	}
	return s, nil
}

// ResourceChange is one changed resource.
type ResourceChange struct {
	URI  string `json:"uri"`
	Type string `json:"type"`
}

// ResourceChangeList is `{items: ResourceChange[]}`.
type ResourceChangeList struct {
	Items []ResourceChange `json:"items"`
}

// ResourceWatchChanged reports changes under a watch (server → client).
type ResourceWatchChanged struct {
	Changes ResourceChangeList `json:"changes"`
}

// ActionType returns ActionResourceWatchChanged.
func (*ResourceWatchChanged) ActionType() string { return ActionResourceWatchChanged }

// MarshalJSON writes the action with its type; items is always an array.
func (a ResourceWatchChanged) MarshalJSON() ([]byte, error) {
	type plain ResourceWatchChanged
	if a.Changes.Items == nil {
		a.Changes.Items = []ResourceChange{}
	}
	return withType(ActionResourceWatchChanged, plain(a))
}
