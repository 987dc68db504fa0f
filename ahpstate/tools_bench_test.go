package ahpstate

import (
	"strconv"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// toolCallActions returns the actions of n tool calls in turn "live":
// start, ready (running, no confirmation) and complete for each, in order.
func toolCallActions(n int) []ahpwire.Action { return toolCallRange(0, n) }

// toolCallRange returns the actions of tool calls call-from … call-(to-1)
// in turn "live", as toolCallActions does.
func toolCallRange(from, to int) []ahpwire.Action {
	out := make([]ahpwire.Action, 0, 3*(to-from))
	for i := from; i < to; i++ {
		id := "call-" + strconv.Itoa(i)
		out = append(out,
			&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: id, ToolName: "bash", DisplayName: "Bash"},
			&ahpwire.ChatToolCallReady{TurnID: "live", ToolCallID: id, InvocationMessage: ahpwire.Plain("run"),
				ToolInput: ahpwire.InlineInput("ls"), Confirmed: "not-needed"},
			&ahpwire.ChatToolCallComplete{TurnID: "live", ToolCallID: id,
				Result: ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("ran")}})
	}
	return out
}

// BenchmarkToolCalls10k reduces 10,000 tool calls (30,000 actions) in one
// active turn, accumulating state as the host does: one op is the whole
// turn. Issue 32: each action copied the turn's parts, 75 s for the turn.
func BenchmarkToolCalls10k(b *testing.B) {
	acts := toolCallActions(benchToolCalls)
	b.ReportAllocs()
	for b.Loop() {
		s := apply(idleChat(), started("live"))
		for _, a := range acts {
			s = ReduceChat(s, a)
		}
		if n := s.ActiveTurn.ResponseParts.Len(); n != benchToolCalls {
			b.Fatalf("%d parts", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(acts)), "ns/action")
}

// benchToolCalls is the number of tool calls in BenchmarkToolCalls10k.
const benchToolCalls = 10_000
