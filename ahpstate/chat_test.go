package ahpstate

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestTurnLifecycleTimestampsAndStatus(t *testing.T) {
	s := apply(idleChat(), started("t1"))
	if s.ModifiedAt != "2026-01-01T00:00:10.000Z" || s.Status != ahpwire.StatusInProgress {
		t.Fatalf("after start: modifiedAt %s status %d", s.ModifiedAt, s.Status)
	}
	s = apply(s,
		&ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("m", "He")},
		&ahpwire.ChatDelta{TurnID: "t1", PartID: "m", Content: "llo"},
		&ahpwire.ChatTurnComplete{TurnID: "t1", Duration: ahpwire.Ptr[int64](1500)},
	)
	if s.ActiveTurn != nil || len(s.Turns) != 1 {
		t.Fatalf("turn not finalized: %s", mustJSON(t, s))
	}
	turn := s.Turns[0]
	if turn.ResponseParts[0].Content != "Hello" || turn.State != ahpwire.TurnComplete || *turn.Duration != 1500 {
		t.Errorf("turn %s", mustJSON(t, turn))
	}
	if s.ModifiedAt != "2026-01-01T00:00:11.500Z" || s.Status != ahpwire.StatusIdle {
		t.Errorf("after end: modifiedAt %s status %d", s.ModifiedAt, s.Status)
	}
}

func TestWithoutClockNoTimestampInvented(t *testing.T) {
	s := apply(idleChat(), &ahpwire.ChatTurnStarted{TurnID: "t", Message: ahpwire.UserMessage("x")}, &ahpwire.ChatTurnComplete{TurnID: "t"})
	if s.ModifiedAt != "2026-01-01T00:00:00.000Z" {
		t.Errorf("modifiedAt changed without clock or action data: %s", s.ModifiedAt)
	}
	r := Reducer{Now: func() time.Time { return time.UnixMilli(42) }}
	s = r.Chat(idleChat(), &ahpwire.ChatTurnStarted{TurnID: "t", Message: ahpwire.UserMessage("x")})
	if s.ModifiedAt != "1970-01-01T00:00:00.042Z" {
		t.Errorf("clock modifiedAt %s", s.ModifiedAt)
	}
}

func TestChatErrorAppendsPartAndResume(t *testing.T) {
	s := apply(idleChat(), started("t1"),
		&ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("m", "partial")},
		&ahpwire.ChatError{TurnID: "t1", Duration: ahpwire.Ptr[int64](5), Part: ahpwire.Ptr(ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "rate", Message: "slow down"}, true))},
	)
	if s.Status.Activity() != ahpwire.StatusError || s.Turns[0].State != ahpwire.TurnError {
		t.Fatalf("status %d turn %s", s.Status, mustJSON(t, s.Turns[0]))
	}
	last := s.Turns[0].ResponseParts[1]
	if last.Kind != ahpwire.PartError || last.Error.Message != "slow down" {
		t.Fatalf("error part %s", mustJSON(t, last))
	}
	if err := ValidateChatAction(s, &ahpwire.ChatTurnResume{TurnID: "t1"}, "c"); err != nil {
		t.Fatalf("resume rejected: %v", err)
	}
	r := apply(s, &ahpwire.ChatTurnResume{TurnID: "t1"})
	if r.ActiveTurn == nil || r.ActiveTurn.ID != "t1" || len(r.Turns) != 0 || r.Status.Activity() != ahpwire.StatusInProgress {
		t.Fatalf("resume: %s", mustJSON(t, r))
	}
	if len(s.Turns) != 1 {
		t.Fatal("resume mutated the previous state")
	}
	// Legacy error shape: recorded as Turn.error (TestChatErrorRules).
	legacy, _ := ahpwire.DecodeAction([]byte(`{"type":"chat/error","turnId":"t2","error":{"errorType":"x","message":"old"}}`))
	s2 := apply(idleChat(), started("t2"), legacy)
	if e := s2.Turns[0].Error; e == nil || e.Message != "old" || len(s2.Turns[0].ResponseParts) != 0 {
		t.Errorf("legacy error %s", mustJSON(t, s2.Turns[0]))
	}
	if err := ValidateChatAction(s2, &ahpwire.ChatTurnResume{TurnID: "t2"}, "c"); err == nil {
		t.Error("resume of non-resumable error accepted")
	}
}

func TestToolCallLifecycleAndStatus(t *testing.T) {
	s := withPendingTool(nil, true)
	if tc := toolOf(t, s, "tc"); tc.Status != ahpwire.ToolPendingConfirmation || s.Status.Activity() != ahpwire.StatusInputNeeded {
		t.Fatalf("pending: %s status %d", tc.Status, s.Status)
	}
	s = apply(s, &ahpwire.ChatToolCallConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true, Confirmed: ahpwire.ConfirmedUserAction,
		SelectedOptionID: "yes", EditedToolInput: ahpwire.Ptr("ls -la")})
	tc := toolOf(t, s, "tc")
	if tc.Status != ahpwire.ToolRunning || tc.ToolInput.Text != "ls -la" || tc.SelectedOption == nil || tc.SelectedOption.ID != "yes" || tc.Options != nil {
		t.Fatalf("running: %s", mustJSON(t, tc))
	}
	if s.Status.Activity() != ahpwire.StatusInProgress {
		t.Errorf("status after approve %d", s.Status)
	}
	s = apply(s,
		&ahpwire.ChatToolCallContentChanged{TurnID: "t1", ToolCallID: "tc", Content: []ahpwire.ToolResultContent{ahpwire.TextContent("partial")}},
		&ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", RequiresResultConfirmation: true,
			Result: ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("ran")}},
	)
	tc = toolOf(t, s, "tc")
	if tc.Status != ahpwire.ToolPendingResultConfirmation || len(tc.Content) != 0 || tc.Confirmed != ahpwire.ConfirmedUserAction {
		t.Fatalf("pending result: %s", mustJSON(t, tc))
	}
	denied := apply(s, &ahpwire.ChatToolCallResultConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: false})
	if tc := toolOf(t, denied, "tc"); tc.Status != ahpwire.ToolCancelled || tc.Reason != ahpwire.CancelResultDenied || tc.Success != nil {
		t.Errorf("result denied: %s", mustJSON(t, tc))
	}
	ok := apply(s, &ahpwire.ChatToolCallResultConfirmed{TurnID: "t1", ToolCallID: "tc", Approved: true})
	if tc := toolOf(t, ok, "tc"); tc.Status != ahpwire.ToolCompleted || !*tc.Success {
		t.Errorf("result approved: %s", mustJSON(t, tc))
	}
}

func TestAuthRequiredTransitions(t *testing.T) {
	mcp := &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "m1"}
	s := apply(idleChat(), started("t1"),
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "tc", ToolName: "x", DisplayName: "X", Contributor: mcp},
		&ahpwire.ChatToolCallReady{TurnID: "t1", ToolCallID: "tc", InvocationMessage: ahpwire.Plain("go"), Confirmed: ahpwire.ConfirmedNotNeeded},
		&ahpwire.ChatToolCallContentChanged{TurnID: "t1", ToolCallID: "tc", Content: []ahpwire.ToolResultContent{ahpwire.TextContent("before")}},
		&ahpwire.ChatToolCallAuthRequired{TurnID: "t1", ToolCallID: "tc", Auth: ahpwire.McpAuthRequirement{Reason: "required", Resource: ahpwire.ProtectedResourceMetadata{Resource: "https://r"}}},
	)
	if tc := toolOf(t, s, "tc"); tc.Status != ahpwire.ToolAuthRequired || s.Status.Activity() != ahpwire.StatusInputNeeded || len(tc.Content) != 1 {
		t.Fatalf("auth-required: %s status %d", mustJSON(t, tc), s.Status)
	}
	same := apply(s, &ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", Result: ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.Plain("x")}})
	if toolOf(t, same, "tc").Status != ahpwire.ToolAuthRequired {
		t.Error("successful completion from auth-required applied")
	}
	failed := apply(s, &ahpwire.ChatToolCallComplete{TurnID: "t1", ToolCallID: "tc", RequiresResultConfirmation: true,
		Result: ahpwire.ToolCallResult{Success: false, PastTenseMessage: ahpwire.Plain("gave up")}})
	if tc := toolOf(t, failed, "tc"); tc.Status != ahpwire.ToolCompleted || tc.Content[0].Text != "before" {
		t.Errorf("failed completion: %s", mustJSON(t, tc))
	}
	resumed := apply(s, &ahpwire.ChatToolCallAuthResolved{TurnID: "t1", ToolCallID: "tc"})
	if tc := toolOf(t, resumed, "tc"); tc.Status != ahpwire.ToolRunning || tc.Auth != nil {
		t.Errorf("resolved: %s", mustJSON(t, tc))
	}
	// Non-MCP tools never enter auth-required.
	s2 := apply(idleChat(), started("t1"),
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "tc", ToolName: "x", DisplayName: "X"},
		&ahpwire.ChatToolCallReady{TurnID: "t1", ToolCallID: "tc", InvocationMessage: ahpwire.Plain("go"), Confirmed: ahpwire.ConfirmedNotNeeded},
		&ahpwire.ChatToolCallAuthRequired{TurnID: "t1", ToolCallID: "tc"})
	if toolOf(t, s2, "tc").Status != ahpwire.ToolRunning {
		t.Error("server tool entered auth-required")
	}
}

func TestModernInputRequestFlow(t *testing.T) {
	req := ahpwire.ChatInputRequest{ID: "r", Questions: []ahpwire.ChatInputQuestion{
		{Kind: ahpwire.QuestionText, ID: "q1", Message: "name?", Required: ahpwire.Ptr(true)},
		{Kind: ahpwire.QuestionBoolean, ID: "q2", Message: "ok?"},
	}}
	s := apply(idleChat(), started("t1"), &ahpwire.ChatInputRequested{Request: req})
	if s.Status.Activity() != ahpwire.StatusInputNeeded {
		t.Fatalf("status %d", s.Status)
	}
	draft := &ahpwire.ChatInputAnswer{State: ahpwire.AnswerDraft, Value: ahpwire.Ptr(ahpwire.TextAnswer("bo"))}
	s = apply(s, &ahpwire.ChatInputAnswerChanged{RequestID: "r", QuestionID: "q1", Answer: draft})
	// Re-request without answers keeps drafts.
	s = apply(s, &ahpwire.ChatInputRequested{Request: req})
	if r, _ := OpenInputRequest(s, "r"); r.Answers["q1"].Value.String() != "bo" {
		t.Fatalf("draft lost: %s", mustJSON(t, r))
	}
	if err := ValidateChatAction(s, &ahpwire.ChatInputCompleted{RequestID: "r", Response: ahpwire.InputAccept}, "c"); err == nil {
		t.Error("accept with a draft-only required answer accepted")
	}
	sub := map[string]ahpwire.ChatInputAnswer{"q1": {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.TextAnswer("bob"))}}
	done := &ahpwire.ChatInputCompleted{RequestID: "r", Response: ahpwire.InputAccept, Answers: sub}
	if err := ValidateChatAction(s, done, "c"); err != nil {
		t.Fatalf("valid accept rejected: %v", err)
	}
	s = apply(s, done)
	p := s.ActiveTurn.ResponseParts.At(0)
	if p.Response != ahpwire.InputAccept || p.Request.Answers["q1"].State != ahpwire.AnswerSubmitted || s.Status.Activity() != ahpwire.StatusInProgress {
		t.Fatalf("completed: %s status %d", mustJSON(t, p), s.Status)
	}
	if err := ValidateChatAction(s, done, "c"); err == nil {
		t.Error("second completion accepted")
	}
	s = apply(s, &ahpwire.ChatTurnComplete{TurnID: "t1", Duration: ahpwire.Ptr[int64](1)})
	if s.Turns[0].ResponseParts[0].Response != ahpwire.InputAccept {
		t.Error("input part lost at turn end")
	}
}

func TestEndTurnSkipsOpenToolCalls(t *testing.T) {
	s := apply(idleChat(), started("t1"),
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "a", ToolName: "x", DisplayName: "X"},
		&ahpwire.ChatToolCallDelta{TurnID: "t1", ToolCallID: "a", Content: "{"},
		&ahpwire.ChatToolCallStart{TurnID: "t1", ToolCallID: "b", ToolName: "y", DisplayName: "Y"},
		&ahpwire.ChatToolCallReady{TurnID: "t1", ToolCallID: "b", InvocationMessage: ahpwire.Plain("run"), ToolInput: ahpwire.InlineInput("in")},
		&ahpwire.ChatTurnCancelled{TurnID: "t1", Duration: ahpwire.Ptr[int64](-5)},
	)
	a, b := s.Turns[0].ResponseParts[0].ToolCall, s.Turns[0].ResponseParts[1].ToolCall
	if a.Status != ahpwire.ToolCancelled || a.Reason != ahpwire.CancelSkipped || a.PartialInput != nil || a.InvocationMessage == nil || a.ToolInput != nil {
		t.Errorf("streaming tool: %s", mustJSON(t, a))
	}
	if b.Status != ahpwire.ToolCancelled || b.ToolInput.Text != "in" || b.Options != nil {
		t.Errorf("pending tool: %s", mustJSON(t, b))
	}
	if *s.Turns[0].Duration != 0 || s.Turns[0].State != ahpwire.TurnCancelled {
		t.Errorf("negative duration not clamped: %s", mustJSON(t, s.Turns[0]))
	}
}

func TestTurnsLoadedAndTruncate(t *testing.T) {
	s := apply(idleChat(), started("t3"), &ahpwire.ChatTurnComplete{TurnID: "t3", Duration: ahpwire.Ptr[int64](1)})
	s.TurnsNextCursor = "c1"
	older := []ahpwire.Turn{{ID: "t1", Message: ahpwire.UserMessage("1"), State: ahpwire.TurnComplete}, {ID: "t3", Message: ahpwire.UserMessage("dup"), State: ahpwire.TurnComplete}}
	s = apply(s, &ahpwire.ChatTurnsLoaded{Turns: older})
	if len(s.Turns) != 2 || s.Turns[0].ID != "t1" || s.Turns[1].Message.Text != "hi" || s.TurnsNextCursor != "" {
		t.Fatalf("turnsLoaded: %s", mustJSON(t, s))
	}
	kept := apply(s, &ahpwire.ChatTruncated{TurnID: "t1"})
	if len(kept.Turns) != 1 || len(s.Turns) != 2 {
		t.Fatalf("truncate: %d turns (orig %d)", len(kept.Turns), len(s.Turns))
	}
	// Appending after truncation must not overwrite the original's turn t3.
	kept = apply(kept, started("t4"), &ahpwire.ChatTurnComplete{TurnID: "t4", Duration: ahpwire.Ptr[int64](1)})
	if s.Turns[1].ID != "t3" {
		t.Fatalf("truncate aliasing overwrote original: %s", s.Turns[1].ID)
	}
	all := apply(s, &ahpwire.ChatTruncated{})
	if len(all.Turns) != 0 || all.TurnsNextCursor != "" || mustJSON(t, all.Turns) != "[]" {
		t.Errorf("truncate all: %s", mustJSON(t, all))
	}
}

func TestNoAliasingOnAppend(t *testing.T) {
	base := apply(idleChat(), started("t1"))
	// Give the parts slice spare capacity, as a decoded or grown slice may have.
	parts := make([]ahpwire.ResponsePart, 1, 8)
	parts[0] = ahpwire.MarkdownPart("m0", "x")
	at := *base.ActiveTurn
	at.ResponseParts = ahpwire.PartsOf(parts...)
	base.ActiveTurn = &at
	before := mustJSON(t, base)
	a := ReduceChat(base, &ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("a", "A")})
	b := ReduceChat(base, &ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("b", "B")})
	if a.ActiveTurn.ResponseParts.At(1).ID != "a" || b.ActiveTurn.ResponseParts.At(1).ID != "b" {
		t.Fatalf("sibling states share a backing array: a=%s b=%s", mustJSON(t, a), mustJSON(t, b))
	}
	c := ReduceChat(base, &ahpwire.ChatDelta{TurnID: "t1", PartID: "m0", Content: "y"})
	if c.ActiveTurn.ResponseParts.At(0).Content != "xy" || mustJSON(t, base) != before {
		t.Fatalf("delta mutated base: %s", mustJSON(t, base))
	}
}

func TestUnknownAndForeignActionsAreNoOps(t *testing.T) {
	s := apply(idleChat(), started("t1"))
	before := mustJSON(t, s)
	for _, a := range []ahpwire.Action{
		&ahpwire.UnknownAction{Type: "chat/future", Raw: json.RawMessage(`{"type":"chat/future"}`)},
		&ahpwire.SessionTitleChanged{Title: "x"},
		(*ahpwire.ChatDelta)(nil),
		nil,
		&ahpwire.ChatUsage{TurnID: "other"},
	} {
		if got := mustJSON(t, ReduceChat(s, a)); got != before {
			t.Errorf("%T changed state: %s", a, got)
		}
	}
}

func TestPendingAndMiscChatActions(t *testing.T) {
	s := apply(idleChat(),
		&ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "q1", Message: ahpwire.UserMessage("1")},
		&ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: "q2", Message: ahpwire.UserMessage("2")},
		&ahpwire.ChatSteeringMessageSet{SteeringMessage: ahpwire.PendingMessage{ID: "s1", Message: ahpwire.UserMessage("s")}},
		&ahpwire.ChatIsReadChanged{IsRead: true},
		&ahpwire.ChatWorkingDirectorySet{Directory: "file:///a"},
		&ahpwire.ChatWorkingDirectorySet{Directory: "file:///a"},
		&ahpwire.ChatBackgroundWorkSet{Work: ahpwire.BackgroundWork{Kind: "shell", ID: "w", Label: "l"}},
		&ahpwire.ChatActivityChanged{Activity: "busy"},
	)
	if len(s.QueuedMessages) != 2 || len(s.SteeringMessages) != 1 || !s.Status.Has(ahpwire.StatusIsRead) || len(s.WorkingDirectories) != 1 || len(s.BackgroundWork) != 1 || s.Activity != "busy" {
		t.Fatalf("state %s", mustJSON(t, s))
	}
	s = apply(s, &ahpwire.ChatTurnStarted{TurnID: "t", StartedAt: "2026-01-01T00:00:00Z", Message: ahpwire.UserMessage("1"), QueuedMessageID: "q1"})
	if len(s.QueuedMessages) != 1 || s.QueuedMessages[0].ID != "q2" || s.Status.Has(ahpwire.StatusIsRead) {
		t.Errorf("queued consumption: %s", mustJSON(t, s))
	}
	s = apply(s, &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: "q2"},
		&ahpwire.ChatSteeringMessageRemoved{ID: "s1"}, &ahpwire.ChatBackgroundWorkRemoved{ID: "w"},
		&ahpwire.ChatWorkingDirectoryRemoved{Directory: "file:///a"})
	if s.QueuedMessages != nil || s.SteeringMessages != nil || s.BackgroundWork != nil || len(s.WorkingDirectories) != 0 {
		t.Errorf("removals: %s", mustJSON(t, s))
	}
}

func TestLongStreamKeepsEveryState(t *testing.T) {
	s := apply(idleChat(), started("t1"), &ahpwire.ChatResponsePart{TurnID: "t1", Part: ahpwire.MarkdownPart("m", "")})
	states := []ahpwire.ChatState{s}
	for i := range 300 {
		s = ReduceChat(s, &ahpwire.ChatDelta{TurnID: "t1", PartID: "m", Content: fmt.Sprint(i % 10)})
		states = append(states, s)
	}
	// Two siblings branch from a middle state; each keeps its own text.
	mid := states[150]
	a := ReduceChat(mid, &ahpwire.ChatDelta{TurnID: "t1", PartID: "m", Content: "A"})
	b := ReduceChat(mid, &ahpwire.ChatDelta{TurnID: "t1", PartID: "m", Content: "B"})
	want := ""
	for i, st := range states {
		if got := st.ActiveTurn.ResponseParts.At(0).Content; got != want {
			t.Fatalf("state %d: %q, want %q", i, got, want)
		}
		want += fmt.Sprint(i % 10)
	}
	prefix := states[150].ActiveTurn.ResponseParts.At(0).Content
	if got := a.ActiveTurn.ResponseParts.At(0).Content; got != prefix+"A" {
		t.Fatalf("sibling a: %q", got)
	}
	if got := b.ActiveTurn.ResponseParts.At(0).Content; got != prefix+"B" {
		t.Fatalf("sibling b: %q", got)
	}
	done := ReduceChat(s, &ahpwire.ChatTurnComplete{TurnID: "t1", Duration: ahpwire.Ptr[int64](1)})
	if got := done.Turns[0].ResponseParts[0].Content; got != want[:len(want)-1] {
		t.Fatalf("finished turn text %d bytes, want %d", len(got), len(want)-1)
	}
}
