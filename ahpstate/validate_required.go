package ahpstate

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// requiredFields lists, per client-dispatchable action type, the members
// AHP 1.0 declares required (types/channels-*/actions.ts; `type` itself is
// checked by the decoder). Decoding into Go structs cannot tell a missing
// field from its zero value, so they are checked on the raw JSON.
var requiredFields = map[string][]string{
	"chat/turnStarted":                {"turnId", "startedAt", "message"},
	"chat/turnCancelled":              {"turnId", "duration"},
	"chat/turnResume":                 {"turnId"},
	"chat/toolCallConfirmed":          {"turnId", "toolCallId", "approved"},
	"chat/toolCallResultConfirmed":    {"turnId", "toolCallId", "approved"},
	"chat/toolCallComplete":           {"turnId", "toolCallId", "result"},
	"chat/toolCallContentChanged":     {"turnId", "toolCallId", "content"},
	"chat/inputAnswerChanged":         {"requestId", "questionId"},
	"chat/inputCompleted":             {"requestId", "response"},
	"chat/pendingMessageSet":          {"kind", "id", "message"},
	"chat/pendingMessageRemoved":      {"kind", "id"},
	"chat/queuedMessagesReordered":    {"order"},
	"chat/steeringMessageSet":         {"steeringMessage"},
	"chat/steeringMessageRemoved":     {"id"},
	"chat/isReadChanged":              {"isRead"},
	"chat/isArchivedChanged":          {"isArchived"},
	"chat/workingDirectorySet":        {"directory"},
	"chat/workingDirectoryRemoved":    {"directory"},
	"session/titleChanged":            {"title"},
	"session/isReadChanged":           {"isRead"},
	"session/isArchivedChanged":       {"isArchived"},
	"session/activeClientSet":         {"activeClient"},
	"session/activeClientRemoved":     {"clientId"},
	"session/workingDirectorySet":     {"directory"},
	"session/workingDirectoryRemoved": {"directory"},
	"session/customizationToggled":    {"id", "enablement"},
	"session/mcpServerStartRequested": {"id"},
	"session/mcpServerStopRequested":  {"id"},
	"session/configChanged":           {"config"},
}

// CheckRequiredFields rejects a client-dispatched action (its raw JSON
// object) that lacks a member AHP 1.0 requires, or carries it as null:
// e.g. chat/turnStarted without startedAt or chat/turnCancelled without
// duration. An approving chat/toolCallConfirmed also needs `confirmed`, a
// denying one `reason`. Actions without an entry only need `type`.
func CheckRequiredFields(raw json.RawMessage) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return reject("action is not a JSON object")
	}
	var typ string
	if err := json.Unmarshal(fields["type"], &typ); err != nil || typ == "" {
		return reject("action has no type")
	}
	need := requiredFields[typ]
	if typ == "chat/toolCallConfirmed" {
		switch v := fields["approved"]; {
		case bytes.Equal(v, []byte("true")):
			need = append(clip(need), "confirmed")
		case bytes.Equal(v, []byte("false")):
			need = append(clip(need), "reason")
		}
	}
	var missing []string
	for _, f := range need {
		if v, ok := fields[f]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return reject("%s is missing required field(s): %s", typ, strings.Join(missing, ", "))
	}
	return nil
}
