package reducer

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/textbuf"
)

// build reduces actions from the empty state.
func build(actions ...Action) State { return ReduceAll(State{}, actions...) }

// streaming is a state with turn t1 active: user message, current message
// with a text block p1 ("Hel"), a thinking block r1 and tool call tc1
// (streaming).
func streaming() State {
	return build(
		UserMessage{TurnID: "t1", Text: "hi"},
		MessageStart{ID: "t1", TurnID: "t1"},
		BlockStart{MessageID: "t1", BlockID: "p1", Kind: KindText, Text: "He"},
		BlockDelta{MessageID: "t1", Index: 0, Kind: KindText, Delta: "l"},
		BlockStart{MessageID: "t1", BlockID: "r1", Kind: KindThinking},
		BlockStart{MessageID: "t1", Kind: KindToolCall, Tool: &ahpwire.ToolCallState{
			Status: ahpwire.ToolStreaming, ToolCallID: "tc1", ToolName: "bash", DisplayName: "Run"}},
	)
}

// doneTool is a completed tool call tc1.
var doneTool = &ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, ToolCallID: "tc1", ToolName: "bash",
	DisplayName: "Run", Success: ahpwire.Ptr(true)}

func TestReduceLifecycle(t *testing.T) {
	tests := map[string]struct {
		in    State
		act   Action
		check func(t *testing.T, s State)
	}{
		"message start on idle state": {
			in: State{}, act: MessageStart{ID: "m", TurnID: "t", StartedAt: time.Unix(5, 0)},
			check: func(t *testing.T, s State) {
				if s.Current == nil || s.Current.ID != "m" || !s.Current.Open() || s.Current.Role != RoleAssistant ||
					!s.Current.StartedAt.Equal(time.Unix(5, 0)) || len(s.Messages) != 0 {
					t.Fatalf("got %+v", s.Current)
				}
			},
		},
		"message start finalises an orphaned current": {
			in: streaming(), act: MessageStart{ID: "t2", TurnID: "t2"},
			check: func(t *testing.T, s State) {
				if len(s.Messages) != 2 || s.Messages[1].Status != StatusInterrupted || s.Current.ID != "t2" ||
					s.Stats.ForcedFinalizations != 1 || s.Stats.ForcedBlockEnds != 3 {
					t.Fatalf("got %d messages, stats %+v", len(s.Messages), s.Stats)
				}
				for _, b := range s.Messages[1].Blocks.All() {
					if b.Open {
						t.Fatalf("block %s left open", b.ID)
					}
				}
				// What a turn end does to a tool call is AHP's rule (ahpstate);
				// an interrupted message keeps the tool call as last known.
				if tc := s.Messages[1].Blocks.At(2).Tool; tc.Status != ahpwire.ToolStreaming {
					t.Fatalf("tool payload changed: %+v", tc)
				}
			},
		},
		"block delta appends": {
			in: streaming(), act: BlockDelta{MessageID: "t1", Index: 0, Kind: KindText, Delta: "lo"},
			check: func(t *testing.T, s State) {
				if got := mustBlock(t, s.Current, "p1").Text(); got != "Hello" {
					t.Fatalf("text %q", got)
				}
			},
		},
		"thinking delta appends to thinking": {
			in: streaming(), act: BlockDelta{MessageID: "t1", Index: 1, Kind: KindThinking, Delta: "hmm"},
			check: func(t *testing.T, s State) {
				if got := mustBlock(t, s.Current, "r1").Text(); got != "hmm" {
					t.Fatalf("text %q", got)
				}
			},
		},
		"delta of the wrong kind is ignored and counted": {
			in: streaming(), act: BlockDelta{MessageID: "t1", Index: 1, Kind: KindText, Delta: "x"},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredDeltas != 1 || mustBlock(t, s.Current, "r1").Text() != "" {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"delta addressed to a tool call block is ignored": {
			in: streaming(), act: BlockDelta{MessageID: "t1", Index: 2, Kind: KindText, Delta: "x"},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredDeltas != 1 {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"delta for an unknown block is ignored and counted": {
			in: streaming(), act: BlockDelta{MessageID: "t1", Index: 9, Kind: KindText, Delta: "x"},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredDeltas != 1 {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"delta for another message is ignored and counted": {
			in: streaming(), act: BlockDelta{MessageID: "t0", Index: 0, Kind: KindText, Delta: "x"},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredDeltas != 1 || mustBlock(t, s.Current, "p1").Text() != "Hel" {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"delta for a closed block is ignored and counted": {
			in:  ReduceAll(streaming(), BlockEnd{MessageID: "t1", Index: 0}),
			act: BlockDelta{MessageID: "t1", Index: 0, Kind: KindText, Delta: "x"},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredDeltas != 1 || mustBlock(t, s.Current, "p1").Text() != "Hel" {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"delta after the message finished is ignored and counted": {
			in:  ReduceAll(streaming(), MessageEnd{MessageID: "t1", Status: StatusComplete}),
			act: BlockDelta{MessageID: "t1", Index: 0, Kind: KindText, Delta: "x"},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredDeltas != 1 || s.Messages[1].Text() != "Hel" {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"block start of each kind": {
			in: streaming(),
			act: BlockStart{MessageID: "t1", Kind: KindUnknown, BlockID: "u1",
				Unknown: &UnknownPart{Kind: "attribution", Raw: json.RawMessage(`{"kind":"attribution"}`)}},
			check: func(t *testing.T, s State) {
				b := s.Current.Blocks.At(3)
				if b.Kind != KindUnknown || b.Open || b.Index != 3 || b.Unknown.Kind != "attribution" {
					t.Fatalf("got %+v", b)
				}
			},
		},
		"block start without its payload is ignored": {
			in: streaming(), act: BlockStart{MessageID: "t1", Kind: KindToolCall},
			check: func(t *testing.T, s State) {
				if s.Current.Blocks.Len() != 3 || s.Stats.IgnoredActions != 1 {
					t.Fatalf("blocks %d stats %+v", s.Current.Blocks.Len(), s.Stats)
				}
			},
		},
		"block end closes a block and keeps its payload": {
			in: streaming(), act: BlockEnd{MessageID: "t1", Index: 2},
			check: func(t *testing.T, s State) {
				b := mustBlock(t, s.Current, "tc1")
				if b.Open || b.Tool.Status != ahpwire.ToolStreaming || b.Tool.ToolCallID != "tc1" || b.Index != 2 {
					t.Fatalf("got %+v", b.Tool)
				}
			},
		},
		"block end of a closed or unknown block is ignored": {
			in: ReduceAll(streaming(), BlockEnd{MessageID: "t1", Index: 2}), act: BlockEnd{MessageID: "t1", Index: 2},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredActions != 1 || Reduce(s, BlockEnd{MessageID: "t1", Index: 7}).Stats.IgnoredActions != 2 {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"block update replaces the payload and shares it": {
			in:  streaming(),
			act: BlockUpdate{Index: 2, BlockStart: BlockStart{MessageID: "t1", Kind: KindToolCall, Tool: doneTool}},
			check: func(t *testing.T, s State) {
				b := s.Current.Blocks.At(2)
				if b.Tool != doneTool || b.Open || b.Index != 2 || b.ID != "tc1" || b.Rev != s.Seq || s.Current.Blocks.Len() != 3 {
					t.Fatalf("got %+v", b)
				}
			},
		},
		"block update of an input request follows its response": {
			in: ReduceAll(streaming(), BlockStart{MessageID: "t1", Kind: KindInputRequest, Input: &ahpwire.ChatInputRequest{ID: "in1"}}),
			act: BlockUpdate{Index: 3, BlockStart: BlockStart{MessageID: "t1", Kind: KindInputRequest,
				Input: &ahpwire.ChatInputRequest{ID: "in1", Message: "m"}, Response: ahpwire.InputAccept}},
			check: func(t *testing.T, s State) {
				b := s.Current.Blocks.At(3)
				if b.Open || b.Response != ahpwire.InputAccept || b.Input.Message != "m" || len(s.PendingInputs()) != 0 {
					t.Fatalf("got %+v", b)
				}
			},
		},
		"block update of an unknown block or without payload is ignored": {
			in:  streaming(),
			act: BlockUpdate{Index: 5, BlockStart: BlockStart{MessageID: "t1", Kind: KindToolCall, Tool: doneTool}},
			check: func(t *testing.T, s State) {
				s = Reduce(s, BlockUpdate{Index: 2, BlockStart: BlockStart{MessageID: "t1", Kind: KindToolCall}})
				if s.Stats.IgnoredActions != 2 || s.Current.Blocks.At(2).Tool.Status != ahpwire.ToolStreaming {
					t.Fatalf("stats %+v", s.Stats)
				}
			},
		},
		"message end moves current to messages and clamps duration": {
			in: streaming(), act: MessageEnd{MessageID: "t1", Status: StatusCancelled, Duration: -time.Second},
			check: func(t *testing.T, s State) {
				m := s.Messages[len(s.Messages)-1]
				if s.Current != nil || m.Status != StatusCancelled || m.Duration != 0 || s.Stats.ForcedBlockEnds != 3 {
					t.Fatalf("got %+v stats %+v", m, s.Stats)
				}
			},
		},
		"message end for another message is ignored": {
			in: streaming(), act: MessageEnd{MessageID: "x"},
			check: func(t *testing.T, s State) {
				if s.Current == nil || s.Stats.IgnoredActions != 1 {
					t.Fatal("ended the wrong message")
				}
			},
		},
		"session end force-finalises": {
			in: streaming(), act: SessionEnd{Reason: "disposed", Failed: true, Error: &ErrorInfo{Message: "boom"}},
			check: func(t *testing.T, s State) {
				if s.Current != nil || !s.Ended || !s.Failed || s.EndReason != "disposed" || s.LastError.Message != "boom" ||
					s.Messages[1].Status != StatusInterrupted || s.Stats.ForcedFinalizations != 1 {
					t.Fatalf("got %+v", s)
				}
			},
		},
		"user message is finished at once": {
			in: State{}, act: UserMessage{TurnID: "t9", Text: "yo", Attachments: []Attachment{{Type: "resource", Label: "a"}}},
			check: func(t *testing.T, s State) {
				m := s.Messages[0]
				if m.ID != "t9/user" || m.Role != RoleUser || m.Origin != "user" || m.Text() != "yo" || m.Open() ||
					len(m.Attachments) != 1 {
					t.Fatalf("got %+v", m)
				}
			},
		},
		"error joins the current message": {
			in: streaming(), act: Error{MessageID: "t1", Info: ErrorInfo{Message: "bad", Resumable: true}},
			check: func(t *testing.T, s State) {
				b := s.Current.Blocks.At(3)
				if b.Kind != KindError || b.Open || !b.Err.Resumable || s.LastError != nil {
					t.Fatalf("got %+v", b)
				}
			},
		},
		"error without a current message becomes LastError": {
			in: State{}, act: Error{Info: ErrorInfo{Message: "bad"}},
			check: func(t *testing.T, s State) {
				if s.LastError == nil || s.LastError.Message != "bad" {
					t.Fatal("no LastError")
				}
			},
		},
		"usage is replaced and summed when finished": {
			in:  ReduceAll(streaming(), UsageChanged{MessageID: "t1", Usage: Usage{InputTokens: 1}}),
			act: UsageChanged{MessageID: "t1", Usage: Usage{InputTokens: 5, OutputTokens: 2}},
			check: func(t *testing.T, s State) {
				s = Reduce(s, MessageEnd{MessageID: "t1", Status: StatusComplete})
				if s.Totals.InputTokens != 5 || s.Totals.OutputTokens != 2 {
					t.Fatalf("totals %+v", s.Totals)
				}
			},
		},
		"snapshot replaces current and its open blocks keep streaming": {
			in: State{},
			act: MessageSnapshot{Message: &Message{ID: "t1", TurnID: "t1", Role: RoleAssistant,
				Blocks: BlocksOf(&Block{ID: "p1", Kind: KindText, Open: true, text: textbuf.New("ab")})}},
			check: func(t *testing.T, s State) {
				s = Reduce(s, BlockDelta{MessageID: "t1", Index: 0, Kind: KindText, Delta: "c"})
				if !s.Current.Open() || mustBlock(t, s.Current, "p1").Text() != "abc" {
					t.Fatalf("got %q", mustBlock(t, s.Current, "p1").Text())
				}
			},
		},
		"snapshot with an invalid block is rejected": {
			in:  streaming(),
			act: MessageSnapshot{Message: &Message{ID: "t1", Role: RoleAssistant, Blocks: BlocksOf(&Block{Kind: KindToolCall})}},
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredActions != 1 || s.Current.Blocks.Len() != 3 {
					t.Fatal("invalid snapshot applied")
				}
			},
		},
		"activity": {
			in: State{}, act: ActivityChanged{Activity: "thinking"},
			check: func(t *testing.T, s State) {
				if s.Activity != "thinking" {
					t.Fatal(s.Activity)
				}
			},
		},
		"nil action is ignored": {
			in: streaming(), act: nil,
			check: func(t *testing.T, s State) {
				if s.Stats.IgnoredActions != 1 {
					t.Fatal("not counted")
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			before := canonState(tc.in)
			got := Reduce(tc.in, tc.act)
			if !reflect.DeepEqual(canonState(tc.in), before) {
				t.Fatal("Reduce modified its input state")
			}
			tc.check(t, got)
		})
	}
}
