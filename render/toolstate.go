package render

import "github.com/ahptui/ahptui/ahpwire"

// ToolOutcome is a tool call's state in one word or two, as the transcript
// shows it: "denied", "failed", "result rejected", "skipped", "waiting for
// approval"…, else its AHP status ("completed", "running"). Exports use it
// so that a failed call is never labelled "completed", nor a denied one
// "cancelled".
func ToolOutcome(tc *ahpwire.ToolCallState) string {
	if tc == nil {
		return ""
	}
	if s := toolState(tc); s != "" {
		return s
	}
	return string(tc.Status)
}
