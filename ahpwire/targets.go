package ahpwire

// ChangesetOperationTarget is what a changeset operation applies to (a
// parameter of invokeChangesetOperation): the whole changeset (kind
// "changeset"), one resource ("resource"), or a range of one ("range").
type ChangesetOperationTarget struct {
	Kind     string     `json:"kind"`
	Resource string     `json:"resource,omitempty"`
	Range    *TextRange `json:"range,omitempty"`
}

// ChatSource is where a chat was started from: a side chat ("sideChat")
// names its chat and the turn it branched at.
type ChatSource struct {
	Kind   string `json:"kind"`
	Chat   string `json:"chat,omitempty"`
	TurnID string `json:"turnId,omitempty"`
}
