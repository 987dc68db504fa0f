package reducer

import (
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// toolCallRange returns the actions of tool calls call-from … call-(to-1) in
// turn "live": start, ready (running) and complete for each.
func toolCallRange(from, to int) []ahpwire.Action {
	var out []ahpwire.Action
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

// applyActs applies acts as a client does (AHP state, then the transcript).
func applyActs(cs ahpwire.ChatState, s State, acts []ahpwire.Action) (ahpwire.ChatState, State) {
	for _, a := range acts {
		cs, s, _ = ApplyAction(cs, s, a)
	}
	return cs, s
}

// TestToolCallCostFlat: on the client too, a tool call's actions cost as
// much at 8,000 parts in the turn as at 1,000 (issue 32: the AHP state
// copied the parts and the transcript the blocks, each action). Bytes
// allocated, not time: no t.Parallel here.
func TestToolCallCostFlat(t *testing.T) {
	cs := ahpwire.ChatState{Resource: genChat, Title: "t", Status: ahpwire.StatusIdle}
	var s State
	cs, s = applyActs(cs, s, []ahpwire.Action{&ahpwire.ChatTurnStarted{TurnID: "live", Message: ahpwire.UserMessage("hi")}})
	cs, s = applyActs(cs, s, toolCallRange(0, 1000))
	measure := func(from, to int) float64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		cs, s = applyActs(cs, s, toolCallRange(from, to))
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(3*(to-from))
	}
	small := measure(1000, 1200)
	cs, s = applyActs(cs, s, toolCallRange(1200, 8000))
	large := measure(8000, 8200)
	b, _ := json.Marshal(cs.ActiveTurn)
	var at struct{ ResponseParts []json.RawMessage }
	if err := json.Unmarshal(b, &at); err != nil || len(at.ResponseParts) != 8200 || s.Current == nil {
		t.Fatalf("%d parts (%v)", len(at.ResponseParts), err)
	}
	t.Logf("bytes per action: %.0f at 1,000 parts, %.0f at 8,000", small, large)
	if large > 1.5*small || large > 16<<10 {
		t.Fatalf("bytes per action grow with the turn: %.0f at 1,000 parts, %.0f at 8,000", small, large)
	}
}

// TestHeldTranscriptUnchanged: a client state (AHP state and transcript)
// held while 1,000 actions are applied from it still shows what it showed.
func TestHeldTranscriptUnchanged(t *testing.T) {
	cs := ahpwire.ChatState{Resource: genChat, Title: "t", Status: ahpwire.StatusIdle}
	var s State
	cs, s = applyActs(cs, s, []ahpwire.Action{&ahpwire.ChatTurnStarted{TurnID: "live", Message: ahpwire.UserMessage("hi")},
		&ahpwire.ChatResponsePart{TurnID: "live", Part: ahpwire.MarkdownPart("m0", "hello")}})
	cs, s = applyActs(cs, s, toolCallRange(0, 100))
	cs, s = applyActs(cs, s, []ahpwire.Action{&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: "open", ToolName: "bash"}})
	heldJSON, _ := json.Marshal(cs)
	heldView := canonState(s)
	var acts []ahpwire.Action
	for i := range 250 {
		acts = append(acts,
			&ahpwire.ChatDelta{TurnID: "live", PartID: "m0", Content: " more"},
			&ahpwire.ChatToolCallDelta{TurnID: "live", ToolCallID: "open", Content: "x"},
			&ahpwire.ChatResponsePart{TurnID: "live", Part: ahpwire.MarkdownPart("n"+strconv.Itoa(i), "new")},
			&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: "more-" + strconv.Itoa(i), ToolName: "bash"})
	}
	ncs, ns := applyActs(cs, s, acts)
	if got, _ := json.Marshal(cs); string(got) != string(heldJSON) {
		t.Fatal("the held AHP state changed")
	}
	if !reflect.DeepEqual(canonState(s), heldView) {
		t.Fatal("the held transcript changed")
	}
	if g, w := canonState(ns), canonState(Project(ncs)); !reflect.DeepEqual(g, w) {
		t.Fatalf("the transcript after the actions is not the projection of the AHP state:\n%+v\n%+v", g, w)
	}
}
