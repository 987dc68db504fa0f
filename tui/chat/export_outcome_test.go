package chat

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestExportLabelsToolOutcomes: a failed call is "failed" and a denied one
// "denied" in exports, as on screen (never "completed" / "cancelled").
func TestExportLabelsToolOutcomes(t *testing.T) {
	no := false
	cases := []struct {
		tc   ahpwire.ToolCallState
		want string
	}{
		{ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, Success: &no, DisplayName: "Run"}, "(failed)"},
		{ahpwire.ToolCallState{Status: ahpwire.ToolCancelled, Reason: ahpwire.CancelDenied, DisplayName: "Run"}, "(denied)"},
		{ahpwire.ToolCallState{Status: ahpwire.ToolCancelled, Reason: ahpwire.CancelSkipped, DisplayName: "Run"}, "(skipped)"},
		{ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, DisplayName: "Run"}, "(completed)"},
	}
	for _, c := range cases {
		if got := toolMarkdown(&c.tc, nil); !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q lacks %s", c.tc, got, c.want)
		}
	}
}
