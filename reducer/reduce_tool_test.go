package reducer

import (
	"encoding/json"
	"testing"
)

// toolIn returns the streaming() state with tc1 moved through actions.
func toolIn(actions ...Action) State { return ReduceAll(streaming(), actions...) }

var (
	readyPending = ToolCallReady{MessageID: "t1", ToolCallID: "tc1", InvocationMessage: Rich{Text: "Run ls"},
		Input: &ToolInput{Text: "ls"}, ConfirmationTitle: &Rich{Text: "Run?"},
		Options: []ConfirmOption{{ID: "once", Label: "Once", Kind: "approve"}, {ID: "no", Label: "No", Kind: "deny"}}}
	readyAuto = ToolCallReady{MessageID: "t1", ToolCallID: "tc1", InvocationMessage: Rich{Text: "Run ls"},
		Input: &ToolInput{Text: "ls"}, Confirmed: ConfirmedNotNeeded}
	approve = ToolCallConfirmed{MessageID: "t1", ToolCallID: "tc1", Approved: true, Confirmed: ConfirmedUserAction, SelectedOptionID: "once"}
	deny    = ToolCallConfirmed{MessageID: "t1", ToolCallID: "tc1", Reason: CancelDenied, ReasonMessage: &Rich{Text: "no"}, UserSuggestion: "try pwd", SelectedOptionID: "no"}
	result  = ToolResult{MessageID: "t1", ToolCallID: "tc1", Result: ToolOutcome{Success: true, PastTenseMessage: Rich{Text: "Ran ls"}},
		Content: []ToolContent{{Type: ContentText, Text: "a.go"}}}
	mcpStart = ToolCallStart{MessageID: "t1", ToolCallID: "tc2", ToolName: "m", Contributor: &Contributor{Kind: "mcp"}}
)

func TestReduceToolTransitions(t *testing.T) {
	tests := map[string]struct {
		in     State
		act    Action
		status ToolStatus
		id     string
		check  func(t *testing.T, tc *ToolCall)
	}{
		"delta accumulates partial input": {
			in:     toolIn(ToolCallDelta{MessageID: "t1", ToolCallID: "tc1", Content: `{"c`}),
			act:    ToolCallDelta{MessageID: "t1", ToolCallID: "tc1", Content: `md"}`, InvocationMessage: &Rich{Text: "Running"}},
			status: ToolStreaming,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.PartialInput() != `{"cmd"}` || tc.InvocationMessage.Text != "Running" {
					t.Fatalf("got %q %+v", tc.PartialInput(), tc.InvocationMessage)
				}
			},
		},
		"ready without confirmed asks for confirmation": {
			in: streaming(), act: readyPending, status: ToolPendingConfirmation,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.ConfirmationTitle.Text != "Run?" || len(tc.Options) != 2 || tc.Input.Text != "ls" || tc.PartialInput() != "" {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"ready with confirmed runs": {
			in: streaming(), act: readyAuto, status: ToolRunning,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.Confirmed != ConfirmedNotNeeded || tc.Options != nil {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"ready again merges into the pending confirmation": {
			in:     toolIn(readyPending),
			act:    ToolCallReady{MessageID: "t1", ToolCallID: "tc1", InvocationMessage: Rich{Text: "Run ls -a"}, Intention: "list"},
			status: ToolPendingConfirmation,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.InvocationMessage.Text != "Run ls -a" || tc.ConfirmationTitle.Text != "Run?" || len(tc.Options) != 2 ||
					tc.Input.Text != "ls" || tc.Intention != "list" {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"ready from running is a re-confirmation": {
			in: toolIn(readyAuto), act: readyPending, status: ToolPendingConfirmation,
		},
		"ready from completed is ignored": {
			in: toolIn(readyAuto, result), act: readyPending, status: ToolCompleted,
		},
		"approve runs with the selected option": {
			in: toolIn(readyPending), act: approve, status: ToolRunning,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.Confirmed != ConfirmedUserAction || tc.SelectedOption == nil || tc.SelectedOption.ID != "once" ||
					tc.ConfirmationTitle != nil {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"approve with edited input": {
			in:     toolIn(readyPending),
			act:    ToolCallConfirmed{MessageID: "t1", ToolCallID: "tc1", Approved: true, EditedInput: &ToolInput{Text: "pwd"}},
			status: ToolRunning,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.Input.Text != "pwd" {
					t.Fatalf("input %+v", tc.Input)
				}
			},
		},
		"deny cancels with reason": {
			in: toolIn(readyPending), act: deny, status: ToolCancelled,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.CancelReason != CancelDenied || tc.ReasonMessage.Text != "no" || tc.UserSuggestion != "try pwd" ||
					tc.SelectedOption.ID != "no" || tc.Input.Text != "ls" {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"confirm when not pending is ignored": {
			in: toolIn(readyAuto), act: approve, status: ToolRunning,
		},
		"complete from running": {
			in: toolIn(readyPending, approve), act: result, status: ToolCompleted,
			check: func(t *testing.T, tc *ToolCall) {
				if !tc.Result.Success || tc.Result.PastTenseMessage.Text != "Ran ls" || tc.Content[0].Text != "a.go" ||
					tc.Confirmed != ConfirmedUserAction || tc.SelectedOption.ID != "once" {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"complete from pending confirmation is not-needed": {
			in: toolIn(readyPending), act: result, status: ToolCompleted,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.Confirmed != ConfirmedNotNeeded || tc.SelectedOption != nil {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"complete needing result confirmation": {
			in:     toolIn(readyAuto),
			act:    ToolResult{MessageID: "t1", ToolCallID: "tc1", Result: ToolOutcome{Success: true}, RequiresResultConfirmation: true},
			status: ToolPendingResultConfirmation,
		},
		"complete from streaming is ignored": {
			in: streaming(), act: result, status: ToolStreaming,
		},
		"result approved completes": {
			in:     toolIn(readyAuto, ToolResult{MessageID: "t1", ToolCallID: "tc1", Result: ToolOutcome{Success: true}, RequiresResultConfirmation: true, Content: []ToolContent{{Type: ContentText, Text: "x"}}}),
			act:    ToolCallResultConfirmed{MessageID: "t1", ToolCallID: "tc1", Approved: true},
			status: ToolCompleted,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.Result == nil || len(tc.Content) != 1 {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"result denied cancels": {
			in:     toolIn(readyAuto, ToolResult{MessageID: "t1", ToolCallID: "tc1", RequiresResultConfirmation: true}),
			act:    ToolCallResultConfirmed{MessageID: "t1", ToolCallID: "tc1"},
			status: ToolCancelled,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.CancelReason != CancelResultDenied || tc.Result != nil {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"content changes while running": {
			in:     toolIn(readyAuto),
			act:    ToolCallContentChanged{MessageID: "t1", ToolCallID: "tc1", Content: []ToolContent{{Type: ContentTerminal, Terminal: &TerminalOutput{Output: "…"}}}, Meta: map[string]json.RawMessage{"a": json.RawMessage(`1`)}},
			status: ToolRunning,
			check: func(t *testing.T, tc *ToolCall) {
				if len(tc.Content) != 1 || tc.Content[0].Terminal.Output != "…" || string(tc.Meta["a"]) != "1" {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"content change when not running is ignored": {
			in: toolIn(readyPending), act: ToolCallContentChanged{MessageID: "t1", ToolCallID: "tc1"}, status: ToolPendingConfirmation,
		},
		"auth required only for mcp tools": {
			in: toolIn(readyAuto), act: ToolCallAuthRequired{MessageID: "t1", ToolCallID: "tc1"}, status: ToolRunning,
		},
		"auth required pauses an mcp tool": {
			in:     toolIn(mcpStart, ToolCallReady{MessageID: "t1", ToolCallID: "tc2", Confirmed: ConfirmedSetting}),
			act:    ToolCallAuthRequired{MessageID: "t1", ToolCallID: "tc2", Auth: AuthRequirement{Resource: "https://x"}},
			id:     "tc2",
			status: ToolAuthRequired,
			check: func(t *testing.T, tc *ToolCall) {
				if tc.Auth.Resource != "https://x" || tc.Confirmed != ConfirmedSetting {
					t.Fatalf("got %+v", tc)
				}
			},
		},
		"auth resolved resumes": {
			in: toolIn(mcpStart, ToolCallReady{MessageID: "t1", ToolCallID: "tc2", Confirmed: ConfirmedSetting},
				ToolCallAuthRequired{MessageID: "t1", ToolCallID: "tc2"}),
			act: ToolCallAuthResolved{MessageID: "t1", ToolCallID: "tc2"}, id: "tc2", status: ToolRunning,
		},
		"successful completion from auth-required is ignored": {
			in: toolIn(mcpStart, ToolCallReady{MessageID: "t1", ToolCallID: "tc2", Confirmed: ConfirmedSetting},
				ToolCallAuthRequired{MessageID: "t1", ToolCallID: "tc2"}),
			act: ToolResult{MessageID: "t1", ToolCallID: "tc2", Result: ToolOutcome{Success: true}}, id: "tc2", status: ToolAuthRequired,
		},
		"failed completion from auth-required completes": {
			in: toolIn(mcpStart, ToolCallReady{MessageID: "t1", ToolCallID: "tc2", Confirmed: ConfirmedSetting},
				ToolCallContentChanged{MessageID: "t1", ToolCallID: "tc2", Content: []ToolContent{{Type: ContentText, Text: "partial"}}},
				ToolCallAuthRequired{MessageID: "t1", ToolCallID: "tc2"}),
			act: ToolResult{MessageID: "t1", ToolCallID: "tc2", RequiresResultConfirmation: true}, id: "tc2", status: ToolCompleted,
			check: func(t *testing.T, tc *ToolCall) {
				if len(tc.Content) != 1 || tc.Content[0].Text != "partial" {
					t.Fatalf("pre-auth content lost: %+v", tc.Content)
				}
			},
		},
		"unknown tool call id is ignored": {
			in: streaming(), act: ToolCallDelta{MessageID: "t1", ToolCallID: "zz"}, status: ToolStreaming,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			id := tc.id
			if id == "" {
				id = "tc1"
			}
			before := toolOf(t, tc.in, id)
			beforeStatus := before.Status
			got := Reduce(tc.in, tc.act)
			if toolOf(t, tc.in, id).Status != beforeStatus {
				t.Fatal("input state modified")
			}
			after := toolOf(t, got, id)
			if after.Status != tc.status {
				t.Fatalf("status %s, want %s", after.Status, tc.status)
			}
			if b := mustBlock(t, got.Current, id); b.Open != !after.Status.Terminal() {
				t.Fatalf("open=%v for %s", b.Open, after.Status)
			}
			unchanged := after == before
			if unchanged != (got.Stats.IgnoredActions+got.Stats.IgnoredDeltas > tc.in.Stats.IgnoredActions+tc.in.Stats.IgnoredDeltas) {
				t.Fatalf("ignored counter does not match the outcome (unchanged=%v, stats %+v)", unchanged, got.Stats)
			}
			if tc.check != nil {
				tc.check(t, after)
			}
		})
	}
}

func TestToolResultWithoutMessageTargetsFinishedMessages(t *testing.T) {
	s := toolIn(readyAuto, MessageEnd{MessageID: "t1", Status: StatusComplete})
	// turn end skipped the running tool; start one that stays running in a
	// finished message via a snapshot-restored history.
	m := &Message{ID: "t0", TurnID: "t0", Role: RoleAssistant, Status: StatusInterrupted, Blocks: []*Block{
		{ID: "late", Kind: KindToolCall, Tool: &ToolCall{ID: "late", Status: ToolRunning}},
	}}
	s = Reduce(s, HistoryLoaded{Messages: []*Message{m}})
	prev := s.Messages
	got := Reduce(s, ToolResult{ToolCallID: "late", Result: ToolOutcome{Success: true}})
	b := got.Messages[0].Blocks[0]
	if b.Tool.Status != ToolCompleted || prev[0].Blocks[0].Tool.Status != ToolRunning {
		t.Fatalf("got %s (old %s)", b.Tool.Status, prev[0].Blocks[0].Tool.Status)
	}
	if got.Messages[1] != prev[1] {
		t.Fatal("untouched finished messages must be shared, not copied")
	}
	if Reduce(s, ToolResult{ToolCallID: "nope"}).Stats.IgnoredActions != s.Stats.IgnoredActions+1 {
		t.Fatal("unknown tool id not counted")
	}
}
