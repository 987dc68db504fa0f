package ahpstate

import (
	"encoding/json"
	"runtime"
	"strconv"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// bytesPerAction reduces acts from s and returns the bytes allocated per
// action (the process's, so nothing else may run: no t.Parallel here).
func bytesPerAction(s ahpwire.ChatState, acts []ahpwire.Action) (float64, ahpwire.ChatState) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, a := range acts {
		s = ReduceChat(s, a)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(acts)), s
}

// TestToolCallCostFlat: a tool call's actions cost as much at 8,000 parts
// in the turn as at 1,000 (issue 32: each action copied the turn's parts,
// 160 bytes a part, so 8× the bytes; now O(log n)). Bytes, not time: the
// measure does not move with the machine's load.
func TestToolCallCostFlat(t *testing.T) {
	s := apply(idleChat(), started("live"))
	s = apply(s, toolCallRange(0, 1000)...)
	small, s := bytesPerAction(s, toolCallRange(1000, 1200))
	s = apply(s, toolCallRange(1200, 8000)...)
	large, s := bytesPerAction(s, toolCallRange(8000, 8200))
	if got := len(activeParts(t, s)); got != 8200 {
		t.Fatalf("%d parts, want 8200", got)
	}
	t.Logf("bytes per action: %.0f at 1,000 parts, %.0f at 8,000", small, large)
	if large > 1.5*small || large > 8<<10 {
		t.Fatalf("bytes per action grow with the turn: %.0f at 1,000 parts, %.0f at 8,000", small, large)
	}
}

// activeParts decodes the active turn's parts from the state's JSON.
func activeParts(t *testing.T, s ahpwire.ChatState) []json.RawMessage {
	t.Helper()
	var v struct {
		ActiveTurn struct {
			ResponseParts []json.RawMessage `json:"responseParts"`
		} `json:"activeTurn"`
	}
	if err := json.Unmarshal([]byte(mustJSON(t, s)), &v); err != nil {
		t.Fatal(err)
	}
	return v.ActiveTurn.ResponseParts
}

// TestOldStateUnchanged: a state held while 1,000 actions are reduced from
// it (tool calls new and old, text growing, questions asked and answered,
// parts appended), and from a sibling of it, still encodes as it did.
func TestOldStateUnchanged(t *testing.T) {
	s := apply(idleChat(), started("live"),
		&ahpwire.ChatResponsePart{TurnID: "live", Part: ahpwire.MarkdownPart("m0", "hello")},
		&ahpwire.ChatInputRequested{Request: ahpwire.ChatInputRequest{ID: "q0", Message: "which?"}})
	s = apply(s, toolCallRange(0, 100)...)
	s = apply(s, &ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: "open", ToolName: "bash"})
	held := s
	want := mustJSON(t, held)
	var acts []ahpwire.Action
	for i := range 250 {
		acts = append(acts,
			&ahpwire.ChatDelta{TurnID: "live", PartID: "m0", Content: " more"},
			&ahpwire.ChatToolCallDelta{TurnID: "live", ToolCallID: "open", Content: "x"},
			&ahpwire.ChatResponsePart{TurnID: "live", Part: ahpwire.MarkdownPart("n"+strconv.Itoa(i), "new")},
			&ahpwire.ChatToolCallStart{TurnID: "live", ToolCallID: "more-" + strconv.Itoa(i), ToolName: "bash"})
	}
	acts = append(acts[:996], &ahpwire.ChatInputAnswerChanged{RequestID: "q0", QuestionID: "a", Answer: &ahpwire.ChatInputAnswer{}},
		&ahpwire.ChatInputCompleted{RequestID: "q0", Response: "accept"},
		&ahpwire.ChatToolCallReady{TurnID: "live", ToolCallID: "open", InvocationMessage: ahpwire.Plain("run")},
		&ahpwire.ChatToolCallComplete{TurnID: "live", ToolCallID: "open", Result: ahpwire.ToolCallResult{Success: true}})
	sibling := apply(held, &ahpwire.ChatResponsePart{TurnID: "live", Part: ahpwire.MarkdownPart("sib", "x")})
	sibWant := mustJSON(t, sibling)
	next, other := held, sibling
	for _, a := range acts {
		next, other = ReduceChat(next, a), ReduceChat(other, a)
	}
	if got := mustJSON(t, held); got != want {
		t.Fatalf("the held state changed:\nwas %s\nnow %s", want, got)
	}
	if got := mustJSON(t, sibling); got != sibWant {
		t.Fatal("the sibling state changed")
	}
	if n, m := len(activeParts(t, next)), len(activeParts(t, held)); n != m+498 || len(activeParts(t, other)) != n+1 {
		t.Fatalf("%d parts after the actions, %d held", n, m)
	}
	if ChatStatus(held).Activity() == ChatStatus(next).Activity() {
		t.Fatalf("status did not move: held %v, next %v", ChatStatus(held), ChatStatus(next))
	}
}
