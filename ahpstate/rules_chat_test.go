package ahpstate

import (
	"fmt"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// chatStart is the wire prefix every chat rule test starts from: an
// active turn t1 with a streaming tool call tc.
var chatStart = []string{
	`{"type":"chat/turnStarted","turnId":"t1","startedAt":"2026-01-01T00:00:10.000Z","message":{"text":"hi","origin":{"kind":"user"}}}`,
	`{"type":"chat/toolCallStart","turnId":"t1","toolCallId":"tc","toolName":"bash","displayName":"Bash","_meta":{"v":0}}`,
}

func reduceWire(t *testing.T, s ahpwire.ChatState, raws ...string) ahpwire.ChatState {
	t.Helper()
	for _, a := range decodeActions(t, raws...) {
		s = ReduceChat(s, a)
	}
	return s
}

// TestToolCallMetaRules: every tool-call-scoped action that carries _meta
// replaces the tool call's _meta (tcBaseWithMeta / the spread in delta and
// contentChanged); one without _meta keeps it.
func TestToolCallMetaRules(t *testing.T) {
	ready := `{"type":"chat/toolCallReady","turnId":"t1","toolCallId":"tc","invocationMessage":"run"%s}`
	readyOK := `{"type":"chat/toolCallReady","turnId":"t1","toolCallId":"tc","invocationMessage":"run","confirmed":"not-needed"%s}`
	tests := []struct {
		name  string
		setup []string
		act   string // with one %s for the optional _meta member
	}{
		{"toolCallDelta", nil, `{"type":"chat/toolCallDelta","turnId":"t1","toolCallId":"tc","content":"x"%s}`},
		{"toolCallReady", nil, ready},
		{"toolCallReady re-confirmation", []string{fmt.Sprintf(readyOK, "")}, ready},
		{"toolCallConfirmed", []string{fmt.Sprintf(ready, "")},
			`{"type":"chat/toolCallConfirmed","turnId":"t1","toolCallId":"tc","approved":true,"confirmed":"user-action"%s}`},
		{"toolCallConfirmed deny", []string{fmt.Sprintf(ready, "")},
			`{"type":"chat/toolCallConfirmed","turnId":"t1","toolCallId":"tc","approved":false,"reason":"denied"%s}`},
		{"toolCallComplete", []string{fmt.Sprintf(readyOK, "")},
			`{"type":"chat/toolCallComplete","turnId":"t1","toolCallId":"tc","result":{"success":true,"pastTenseMessage":"ran"}%s}`},
		{"toolCallResultConfirmed", []string{fmt.Sprintf(readyOK, ""),
			`{"type":"chat/toolCallComplete","turnId":"t1","toolCallId":"tc","result":{"success":true,"pastTenseMessage":"ran"},"requiresResultConfirmation":true}`},
			`{"type":"chat/toolCallResultConfirmed","turnId":"t1","toolCallId":"tc","approved":true%s}`},
		{"toolCallContentChanged", []string{fmt.Sprintf(readyOK, "")},
			`{"type":"chat/toolCallContentChanged","turnId":"t1","toolCallId":"tc","content":[{"type":"text","text":"o"}]%s}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := reduceWire(t, idleChat(), append(append([]string{}, chatStart...), tc.setup...)...)
			with := reduceWire(t, base, fmt.Sprintf(tc.act, `,"_meta":{"v":1}`))
			if got := mustJSON(t, toolOf(t, with, "tc").Meta); got != `{"v":1}` {
				t.Errorf("with _meta: tool call _meta = %s, want {\"v\":1}", got)
			}
			if toolOf(t, with, "tc").Status == toolOf(t, base, "tc").Status && tc.name != "toolCallDelta" && tc.name != "toolCallContentChanged" {
				t.Errorf("action did not apply (status %s)", toolOf(t, with, "tc").Status)
			}
			without := reduceWire(t, base, fmt.Sprintf(tc.act, ""))
			if got := mustJSON(t, toolOf(t, without, "tc").Meta); got != `{"v":0}` {
				t.Errorf("without _meta: tool call _meta = %s, want the start's {\"v\":0}", got)
			}
		})
	}
}

// TestToolCallReadyKeepsConfirmationContext: a toolCallReady that only
// completes the risk assessment of a pending confirmation keeps its title,
// edits, editable flag and options (toolCallReady's pending merge).
func TestToolCallReadyKeepsConfirmationContext(t *testing.T) {
	s := reduceWire(t, idleChat(), append(append([]string{}, chatStart...),
		`{"type":"chat/toolCallReady","turnId":"t1","toolCallId":"tc","invocationMessage":"run","toolInput":"ls","confirmationTitle":"Run ls?",`+
			`"riskAssessment":{"kind":"judge","status":"loading"},"edits":{"items":[]},"editable":true,`+
			`"options":[{"id":"yes","label":"Allow","kind":"approve"},{"id":"no","label":"Deny","kind":"deny"}]}`,
		`{"type":"chat/toolCallReady","turnId":"t1","toolCallId":"tc","invocationMessage":"run",`+
			`"riskAssessment":{"kind":"judge","status":"complete","reason":"read-only","safety":0.9}}`)...)
	tc := toolOf(t, s, "tc")
	if tc.Status != ahpwire.ToolPendingConfirmation || tc.ConfirmationTitle == nil || len(tc.Options) != 2 ||
		tc.Edits == nil || tc.Editable == nil || !*tc.Editable || tc.ToolInput == nil {
		t.Fatalf("confirmation context lost: %s", mustJSON(t, tc))
	}
	if got := mustJSON(t, tc.RiskAssessment); got != `{"kind":"judge","status":"complete","reason":"read-only","safety":0.9}` {
		t.Errorf("risk assessment = %s", got)
	}
}

// TestTurnResumeRules: chat/turnResume reopens the latest turn only when it
// ended in an error whose last part is resumable; otherwise a no-op.
func TestTurnResumeRules(t *testing.T) {
	errored := func(resumable string) ahpwire.ChatState {
		return reduceWire(t, idleChat(), chatStart[0],
			`{"type":"chat/responsePart","turnId":"t1","part":{"kind":"markdown","id":"p","content":"partial"}}`,
			`{"type":"chat/error","turnId":"t1","duration":5,"part":{"kind":"error","error":{"errorType":"net","message":"lost"}`+resumable+`}}`)
	}
	resume := `{"type":"chat/turnResume","turnId":"t1"}`
	s := reduceWire(t, errored(`,"resumable":true`), resume)
	if s.ActiveTurn == nil || s.ActiveTurn.ID != "t1" || len(s.Turns) != 0 || s.Status.Activity() != ahpwire.StatusInProgress ||
		s.ActiveTurn.ResponseParts.Len() != 2 || s.ActiveTurn.StartedAt == "" {
		t.Fatalf("resume: %s", mustJSON(t, s))
	}
	// The reopened turn streams on and ends normally.
	s = reduceWire(t, s, `{"type":"chat/responsePart","turnId":"t1","part":{"kind":"markdown","id":"q","content":"more"}}`,
		`{"type":"chat/turnComplete","turnId":"t1","duration":9}`)
	if len(s.Turns) != 1 || s.Turns[0].State != ahpwire.TurnComplete || len(s.Turns[0].ResponseParts) != 3 {
		t.Fatalf("after resume+complete: %s", mustJSON(t, s))
	}
	for _, tc := range []struct {
		name string
		s    ahpwire.ChatState
		act  string
	}{
		{"not resumable", errored(""), resume},
		{"resumable false", errored(`,"resumable":false`), resume},
		{"other turn id", errored(`,"resumable":true`), `{"type":"chat/turnResume","turnId":"t0"}`},
		{"ended by a 0.5 error after a resumable part", reduceWire(t, errored(`,"resumable":true`), resume,
			`{"type":"chat/error","turnId":"t1","error":{"errorType":"x","message":"again"}}`), resume},
	} {
		before := mustJSON(t, tc.s)
		if got := mustJSON(t, reduceWire(t, tc.s, tc.act)); got != before {
			t.Errorf("%s: state changed\n got %s\nwant %s", tc.name, got, before)
		}
	}
}

// TestChatErrorRules: chat/error ends the active turn with state "error"
// and the error, in the ≥0.9 shape (part) and the 0.5-era shape (error).
func TestChatErrorRules(t *testing.T) {
	for _, tc := range []struct {
		name, act string
	}{
		{"part", `{"type":"chat/error","turnId":"t1","duration":3,"part":{"kind":"error","error":{"errorType":"x","message":"boom"}}}`},
		{"0.5 error", `{"type":"chat/error","turnId":"t1","error":{"errorType":"x","message":"boom"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := reduceWire(t, idleChat(), append(append([]string{}, chatStart...), tc.act)...)
			if s.ActiveTurn != nil || len(s.Turns) != 1 || s.Turns[0].State != ahpwire.TurnError || s.Status.Activity() != ahpwire.StatusError {
				t.Fatalf("turn not finalized: %s", mustJSON(t, s))
			}
			parts := s.Turns[0].ResponseParts
			if tc.name == "part" {
				last := parts[len(parts)-1]
				if last.Kind != ahpwire.PartError || last.Error == nil || last.Error.Message != "boom" {
					t.Errorf("error part not appended: %s", mustJSON(t, s.Turns[0]))
				}
			} else if len(parts) != 1 || s.Turns[0].Error == nil || s.Turns[0].Error.Message != "boom" {
				// 0.5 endTurn(..., action.error): Turn.error, no part.
				t.Errorf("0.5 error not recorded as Turn.error: %s", mustJSON(t, s.Turns[0]))
			}
			if parts[0].ToolCall == nil || parts[0].ToolCall.Status != ahpwire.ToolCancelled {
				t.Errorf("streaming tool call not skipped: %s", mustJSON(t, parts[0]))
			}
		})
	}
}
