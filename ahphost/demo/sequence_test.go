package demo

import (
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// seqState is what checkSequence tracks of one turn.
type seqState struct {
	parts  map[string]string // part id → kind
	tools  map[string]string // tool call id → status
	inputs map[string]bool   // open input request ids
	ended  string            // terminating action type
}

// checkSequence asserts that every action of one turn (agent and client, in
// host order) is applicable in AHP's state machine: nothing targets an
// unknown part or tool call, every tool-call transition starts from a status
// the protocol allows, nothing follows the turn's end, and the turn ends.
// It returns the final tool statuses. It is independent of ahpstate, so it
// would also catch actions a reducer silently ignores.
func checkSequence(t *testing.T, turnID string, as []ahpwire.Action, prior *seqState) *seqState {
	t.Helper()
	s := prior
	if s == nil {
		s = &seqState{parts: map[string]string{}, tools: map[string]string{}, inputs: map[string]bool{}}
	}
	s.ended = ""
	fail := func(i int, a ahpwire.Action, why string) {
		t.Helper()
		t.Fatalf("action %d %s: %s\n%s", i, a.ActionType(), why, dump(as))
	}
	move := func(i int, a ahpwire.Action, id, to string, from ...string) {
		t.Helper()
		cur, ok := s.tools[id]
		if !ok {
			fail(i, a, "unknown tool call "+id)
		}
		for _, f := range from {
			if cur == f {
				s.tools[id] = to
				return
			}
		}
		fail(i, a, "tool call "+id+" is "+cur+", cannot become "+to)
	}
	for i, a := range as {
		if s.ended != "" {
			fail(i, a, "after "+s.ended)
		}
		if tid := turnIDOf(a); tid != "" && tid != turnID {
			fail(i, a, "wrong turn "+tid)
		}
		switch v := a.(type) {
		case *ahpwire.ChatResponsePart:
			if v.Part.Kind == ahpwire.PartError {
				fail(i, a, "error parts only via chat/error")
			}
			if _, dup := s.parts[v.Part.ID]; dup || v.Part.ID == "" {
				fail(i, a, "duplicate or empty part id "+v.Part.ID)
			}
			s.parts[v.Part.ID] = v.Part.Kind
		case *ahpwire.ChatDelta:
			if s.parts[v.PartID] != ahpwire.PartMarkdown {
				fail(i, a, "delta to non-markdown part "+v.PartID)
			}
		case *ahpwire.ChatReasoning:
			if s.parts[v.PartID] != ahpwire.PartReasoning {
				fail(i, a, "reasoning to non-reasoning part "+v.PartID)
			}
		case *ahpwire.ChatToolCallStart:
			if _, dup := s.tools[v.ToolCallID]; dup {
				fail(i, a, "duplicate tool call "+v.ToolCallID)
			}
			s.tools[v.ToolCallID] = ahpwire.ToolStreaming
		case *ahpwire.ChatToolCallDelta:
			move(i, a, v.ToolCallID, ahpwire.ToolStreaming, ahpwire.ToolStreaming)
		case *ahpwire.ChatToolCallReady:
			to := ahpwire.ToolPendingConfirmation
			if v.Confirmed != "" {
				to = ahpwire.ToolRunning
			}
			move(i, a, v.ToolCallID, to, ahpwire.ToolStreaming, ahpwire.ToolRunning, ahpwire.ToolPendingConfirmation)
		case *ahpwire.ChatToolCallConfirmed:
			to := ahpwire.ToolCancelled
			if v.Approved {
				to = ahpwire.ToolRunning
			}
			move(i, a, v.ToolCallID, to, ahpwire.ToolPendingConfirmation)
		case *ahpwire.ChatToolCallContentChanged:
			move(i, a, v.ToolCallID, ahpwire.ToolRunning, ahpwire.ToolRunning)
		case *ahpwire.ChatToolCallComplete:
			to := ahpwire.ToolCompleted
			if v.RequiresResultConfirmation {
				to = ahpwire.ToolPendingResultConfirmation
			}
			move(i, a, v.ToolCallID, to, ahpwire.ToolRunning, ahpwire.ToolPendingConfirmation)
		case *ahpwire.ChatToolCallResultConfirmed:
			to := ahpwire.ToolCancelled
			if v.Approved {
				to = ahpwire.ToolCompleted
			}
			move(i, a, v.ToolCallID, to, ahpwire.ToolPendingResultConfirmation)
		case *ahpwire.ChatInputRequested:
			s.inputs[v.Request.ID] = true
		case *ahpwire.ChatInputCompleted:
			if !s.inputs[v.RequestID] {
				fail(i, a, "completes unknown request "+v.RequestID)
			}
			delete(s.inputs, v.RequestID)
		case *ahpwire.ChatInputAnswerChanged:
		case *ahpwire.ChatUsage:
		case *ahpwire.ChatTurnComplete, *ahpwire.ChatError:
			for id, st := range s.tools {
				if st != ahpwire.ToolCompleted && st != ahpwire.ToolCancelled {
					fail(i, a, "turn ends with tool call "+id+" still "+st)
				}
			}
			s.ended = a.ActionType()
		default:
			fail(i, a, "unexpected action type")
		}
	}
	if s.ended == "" {
		t.Fatalf("turn did not end\n%s", dump(as))
	}
	return s
}

// turnIDOf returns the turnId of a turn-scoped action ("" for others).
func turnIDOf(a ahpwire.Action) string {
	switch v := a.(type) {
	case *ahpwire.ChatResponsePart:
		return v.TurnID
	case *ahpwire.ChatDelta:
		return v.TurnID
	case *ahpwire.ChatReasoning:
		return v.TurnID
	case *ahpwire.ChatUsage:
		return v.TurnID
	case *ahpwire.ChatTurnComplete:
		return v.TurnID
	case *ahpwire.ChatError:
		return v.TurnID
	case *ahpwire.ChatToolCallStart:
		return v.TurnID
	case *ahpwire.ChatToolCallDelta:
		return v.TurnID
	case *ahpwire.ChatToolCallReady:
		return v.TurnID
	case *ahpwire.ChatToolCallConfirmed:
		return v.TurnID
	case *ahpwire.ChatToolCallComplete:
		return v.TurnID
	case *ahpwire.ChatToolCallResultConfirmed:
		return v.TurnID
	case *ahpwire.ChatToolCallContentChanged:
		return v.TurnID
	}
	return ""
}
