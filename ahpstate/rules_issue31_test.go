package ahpstate

import (
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// TestToolCallDeltaKeepsEmptyPartialInputAbsent: a streaming tool call
// whose deltas carry no content keeps partialInput absent (AHP's reducer
// never writes an empty optional field); content appends as before.
func TestToolCallDeltaKeepsEmptyPartialInputAbsent(t *testing.T) {
	s := reduceWire(t, idleChat(), append(append([]string{}, chatStart...),
		`{"type":"chat/toolCallDelta","turnId":"t1","toolCallId":"tc","invocationMessage":"thinking"}`,
		`{"type":"chat/toolCallDelta","turnId":"t1","toolCallId":"tc","content":""}`)...)
	if tc := toolOf(t, s, "tc"); tc.PartialInput != nil {
		t.Fatalf("partialInput = %q, want absent", *tc.PartialInput)
	}
	if b := mustJSON(t, s); strings.Contains(b, "partialInput") {
		t.Fatalf("encoded state has partialInput: %s", b)
	}
	s = reduceWire(t, s, `{"type":"chat/toolCallDelta","turnId":"t1","toolCallId":"tc","content":"{\"a\""}`,
		`{"type":"chat/toolCallDelta","turnId":"t1","toolCallId":"tc","content":""}`)
	if tc := toolOf(t, s, "tc"); tc.PartialInput == nil || *tc.PartialInput != `{"a"` {
		t.Fatalf("partialInput = %v, want {\"a\"", tc.PartialInput)
	}
}

// TestTurnResumeMovesModifiedAt: chat/turnResume reopens the turn and, like
// the other turn transitions, stamps modifiedAt from the reducer's clock.
func TestTurnResumeMovesModifiedAt(t *testing.T) {
	r := Reducer{Now: pinnedClock}
	s := idleChat()
	for _, a := range decodeActions(t,
		`{"type":"chat/turnStarted","turnId":"t1","startedAt":"2026-01-01T00:00:10.000Z","message":{"text":"hi","origin":{"kind":"user"}}}`,
		`{"type":"chat/error","turnId":"t1","duration":1000,"part":{"kind":"error","error":{"errorType":"x","message":"m"},"resumable":true}}`) {
		s = r.Chat(s, a)
	}
	if s.ModifiedAt != "2026-01-01T00:00:11.000Z" {
		t.Fatalf("after error modifiedAt = %s", s.ModifiedAt)
	}
	resumed := r.Chat(s, decodeActions(t, `{"type":"chat/turnResume","turnId":"t1"}`)[0])
	if resumed.ActiveTurn == nil {
		t.Fatal("turn not reopened")
	}
	if resumed.ModifiedAt != pinnedStamp {
		t.Fatalf("modifiedAt after resume = %s, want the clock's %s", resumed.ModifiedAt, pinnedStamp)
	}
	if s.ModifiedAt != "2026-01-01T00:00:11.000Z" {
		t.Fatal("input state mutated")
	}
}

// TestChatUpdatedEmptyBackgroundWorkEncodesAsEmptyList: an explicit empty
// backgroundWork in session/chatUpdated leaves `backgroundWork: []` on the
// wire, not an absent member; an entry that never had one stays without.
func TestChatUpdatedEmptyBackgroundWorkEncodesAsEmptyList(t *testing.T) {
	chat := ahpwire.ChatSummary{Resource: "ahp-chat:/c", Title: "c",
		BackgroundWork: []ahpwire.BackgroundWork{{Kind: "shell", ID: "b", Label: "l", StartedAt: "2026-01-01T00:00:00.000Z"}}}
	s := ahpwire.SessionState{Chats: []ahpwire.ChatSummary{chat, {Resource: "ahp-chat:/d", Title: "d"}}}
	n := ReduceSession(s, decodeActions(t, `{"type":"session/chatUpdated","chat":"ahp-chat:/c","changes":{"backgroundWork":[]}}`)[0])
	if b := mustJSON(t, n.Chats[0]); !strings.Contains(b, `"backgroundWork":[]`) {
		t.Fatalf("cleared list not kept as []: %s", b)
	}
	if b := mustJSON(t, n.Chats[1]); strings.Contains(b, "backgroundWork") {
		t.Fatalf("untouched entry gained backgroundWork: %s", b)
	}
}
