package render

import (
	"strconv"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// BenchmarkRenderToolCalls10k renders the streaming message of a turn with
// 10,000 finished tool calls once more after one more tool call started
// (one op = one frame of the chat while such a turn runs): the renderer
// lays out the whole message again, reading each block's cached lines.
// Issue 32: the per-action paths are O(log n); this per-frame one is O(n).
func BenchmarkRenderToolCalls10k(b *testing.B) {
	const n = 10_000
	cs := ahpwire.ChatState{Resource: "ahp-chat:/c1", Title: "t", Status: ahpwire.StatusIdle}
	var s reducer.State
	apply := func(a ahpwire.Action) { cs, s, _ = reducer.ApplyAction(cs, s, a) }
	apply(&ahpwire.ChatTurnStarted{TurnID: "live", Message: ahpwire.UserMessage("hi")})
	for i := range n {
		id := "call-" + strconv.Itoa(i)
		apply(&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: id, ToolName: "bash", DisplayName: "Bash"})
		apply(&ahpwire.ChatToolCallReady{TurnID: "live", ToolCallID: id, InvocationMessage: ahpwire.Plain("run"),
			ToolInput: ahpwire.InlineInput("ls"), Confirmed: "not-needed"})
		apply(&ahpwire.ChatToolCallComplete{TurnID: "live", ToolCallID: id,
			Result: ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("ran")}})
	}
	r := New(DarkStyles())
	r.RenderMessage(s.Current, 100, ViewOpts{})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		apply(&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: "more-" + strconv.Itoa(i), ToolName: "bash", DisplayName: "Bash"})
		if out := r.RenderMessage(s.Current, 100, ViewOpts{}); len(out.Lines) < n {
			b.Fatalf("%d lines", len(out.Lines))
		}
	}
}
