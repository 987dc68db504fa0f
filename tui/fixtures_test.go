package tui

import (
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/picker"
)

const (
	testSession = "ahp-session:/s1"
	testChat    = "ahp-chat:/c1"
)

func ts(d time.Duration) ahpwire.Timestamp {
	return ahpwire.Timestamp(fixedNow.Add(-d).Format(time.RFC3339))
}

func testSessions() []ahpwire.SessionSummary {
	return []ahpwire.SessionSummary{
		{Resource: "ahp-session:/a", Provider: "demo", Title: "Fix the flaky reconnect test", Status: ahpwire.StatusIdle, ModifiedAt: ts(3 * time.Minute), WorkingDirectories: []string{"/home/dev/ahptui"}},
		{Resource: "ahp-session:/b", Provider: "copilot", Title: "Write the README", Status: ahpwire.StatusInProgress, ModifiedAt: ts(2 * time.Hour), WorkingDirectories: []string{"/home/dev/docs"}},
		{Resource: "ahp-session:/c", Provider: "demo", Title: "Benchmark the transcript", Status: ahpwire.StatusError, ModifiedAt: ts(50 * time.Hour)},
	}
}

func snapshotEvent(t testing.TB, uri string, state any) connEventMsg {
	t.Helper()
	s, err := ahpwire.NewSnapshot(uri, state, 1)
	if err != nil {
		t.Fatal(err)
	}
	return connEventMsg{ev: ahpclient.SnapshotEvent{Snapshot: s, Reason: ahpclient.SnapshotSubscribe}}
}

func envelope(seq uint64, a ahpwire.Action) connEventMsg {
	return connEventMsg{ev: ahpclient.EnvelopeEvent{Envelope: ahpwire.ActionEnvelope{Channel: testChat, ServerSeq: seq, Action: a}}}
}

func finishedTurn(id, prompt, answer string) ahpwire.Turn {
	return ahpwire.Turn{
		ID: id, StartedAt: fixedNow.Add(-10 * time.Minute).Format(time.RFC3339), Duration: ahpwire.Ptr(int64(2300)),
		Message:       ahpwire.UserMessage(prompt),
		ResponseParts: []ahpwire.ResponsePart{ahpwire.MarkdownPart(id+".m1", answer)},
		State:         ahpwire.TurnComplete,
		Usage:         &ahpwire.UsageInfo{InputTokens: ahpwire.Ptr(int64(1200)), OutputTokens: ahpwire.Ptr(int64(340)), Model: "demo-1"},
	}
}

func activeTurn(parts ...ahpwire.ResponsePart) *ahpwire.ActiveTurn {
	return &ahpwire.ActiveTurn{
		ID: "t2", StartedAt: fixedNow.Add(-5 * time.Second).Format(time.RFC3339),
		Message: ahpwire.UserMessage("Run the tests and fix what fails"), ResponseParts: ahpwire.PartsOf(parts...),
	}
}

func chatState(turns []ahpwire.Turn, active *ahpwire.ActiveTurn) ahpwire.ChatState {
	return ahpwire.ChatState{Resource: testChat, Title: "Fix the flaky reconnect test", Status: ahpwire.StatusIdle, Turns: turns, ActiveTurn: active}
}

func pendingTool() ahpwire.ResponsePart {
	return ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &ahpwire.ToolCallState{
		Status: ahpwire.ToolPendingConfirmation, ToolCallID: "tc1", ToolName: "run_command", DisplayName: "Run command",
		InvocationMessage: ahpwire.PlainPtr("Run `go test ./...`"), ToolInput: ahpwire.InlineInput(`{"command":"go test ./...","cwd":"."}`),
		ConfirmationTitle: ahpwire.PlainPtr("Run `go test ./...` in the working directory?"),
		RiskAssessment:    &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Safety: ahpwire.Ptr(0.85), Reason: ahpwire.PlainPtr("Runs the test suite.")},
		Options: []ahpwire.ConfirmationOption{
			{ID: "once", Label: "Run once", Kind: "approve"},
			{ID: "session", Label: "Always allow in this session", Kind: "approve"},
			{ID: "no", Label: "Don't run", Kind: "deny"},
		},
	}}
}

// resultReviewTool is pendingTool run and successful, its result waiting
// for the user's review.
func resultReviewTool() ahpwire.ResponsePart {
	tool := pendingTool()
	tool.ToolCall.Status = ahpwire.ToolPendingResultConfirmation
	tool.ToolCall.Confirmed = "user-action"
	tool.ToolCall.Options = nil
	tool.ToolCall.Success = ahpwire.Ptr(true)
	tool.ToolCall.Content = []ahpwire.ToolResultContent{{Type: ahpwire.ContentText, Text: "ok  ./... 0.1s"}}
	return tool
}

func inputPart() ahpwire.ResponsePart {
	yes := true
	return ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &ahpwire.ChatInputRequest{
		ID: "q1", Message: "A few details before I start:",
		Questions: []ahpwire.ChatInputQuestion{
			{Kind: ahpwire.QuestionText, ID: "name", Title: "Project name", Message: "What should the module be called?", Required: &yes},
			{Kind: ahpwire.QuestionSingleSelect, ID: "lang", Title: "Language", Message: "Which language?", AllowFreeformInput: &yes,
				Options: []ahpwire.ChatInputOption{{ID: "go", Label: "Go", Recommended: &yes}, {ID: "rust", Label: "Rust"}}},
			{Kind: ahpwire.QuestionBoolean, ID: "tests", Title: "Write tests?", Message: "Add a test suite?"},
			{Kind: ahpwire.QuestionNumber, ID: "n", Title: "Workers", Message: "How many workers?"},
		},
	}}
}

// openChat drives the model through opening testSession with chat cs.
func openChat(t testing.TB, m Model, cs ahpwire.ChatState) Model {
	t.Helper()
	m = send(t, m, picker.OpenSessionMsg{Session: testSession})
	ss := ahpwire.SessionState{Provider: "demo", Title: "Fix the flaky reconnect test", Lifecycle: ahpwire.LifecycleReady,
		DefaultChat: testChat, Chats: []ahpwire.ChatSummary{{Resource: testChat, Title: "main"}}}
	m = send(t, m, snapshotEvent(t, testSession, ss))
	if m.screen != screenChat || m.chat == nil {
		t.Fatalf("chat not opened (screen %v)", m.screen)
	}
	return send(t, m, snapshotEvent(t, testChat, cs))
}

func reasoningPart() ahpwire.ResponsePart {
	return ahpwire.ReasoningPart("t2.r1", "thinking about\nthe problem\nfor a while")
}
