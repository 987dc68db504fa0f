package reducer

import (
	"strconv"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// BenchmarkToolCalls10k applies 10,000 tool calls (start, ready, complete:
// 30,000 AHP actions) in one turn as a client does: ahpstate's chat state
// and the transcript derived from it, accumulated (one op = the turn).
// Issue 32: quadratic, each action copies the turn's parts and compares
// every part with its previous state.
func BenchmarkToolCalls10k(b *testing.B) {
	const n = 10_000
	acts := make([]ahpwire.Action, 0, 3*n+1)
	acts = append(acts, &ahpwire.ChatTurnStarted{TurnID: "live", StartedAt: "2026-01-01T00:00:10.000Z", Message: ahpwire.UserMessage("hi")})
	for i := range n {
		id := "call-" + strconv.Itoa(i)
		acts = append(acts,
			&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: id, ToolName: "bash", DisplayName: "Bash"},
			&ahpwire.ChatToolCallReady{TurnID: "live", ToolCallID: id, InvocationMessage: ahpwire.Plain("run"),
				ToolInput: ahpwire.InlineInput("ls"), Confirmed: "not-needed"},
			&ahpwire.ChatToolCallComplete{TurnID: "live", ToolCallID: id,
				Result: ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("ran")}})
	}
	b.ReportAllocs()
	for b.Loop() {
		cs := ahpwire.ChatState{Resource: "ahp-chat:/c1", Title: "t", Status: ahpwire.StatusIdle}
		var s State
		for _, a := range acts {
			cs, s, _ = ApplyAction(cs, s, a)
		}
		if got := cs.ActiveTurn.ResponseParts.Len(); got != n {
			b.Fatalf("%d parts", got)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(acts)), "ns/action")
}
