package ahpstate

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// FuzzReduceChat decodes an arbitrary action and applies it (validation,
// then reduction) to several chat states: it must never panic, never
// mutate the input state, and always yield an encodable state.
func FuzzReduceChat(f *testing.F) {
	f.Add([]byte(`{"type":"chat/toolCallConfirmed","turnId":"t1","toolCallId":"tc","approved":true,"confirmed":"user-action","selectedOptionId":"yes"}`))
	f.Add([]byte(`{"type":"chat/delta","turnId":"t1","partId":"tc","content":"x"}`))
	f.Add([]byte(`{"type":"chat/inputCompleted","requestId":"r","response":"accept","answers":{"q":{"state":"submitted"}}}`))
	f.Add([]byte(`{"type":"chat/turnsLoaded","turns":[{"id":"t1","message":{"text":"x","origin":{"kind":"user"}},"responseParts":[{"kind":"toolCall"}],"state":"complete"}]}`))
	f.Add([]byte(`{"type":"chat/responsePart","turnId":"t1","part":{"kind":"toolCall"}}`))
	f.Add([]byte(`{"type":"chat/truncated"}`))
	states := []ahpwire.ChatState{
		idleChat(),
		apply(idleChat(), started("t1")),
		withPendingTool(nil, true),
		apply(idleChat(), started("t1"), &ahpwire.ChatInputRequested{Request: ahpwire.ChatInputRequest{ID: "r"}}),
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		a, err := ahpwire.DecodeAction(raw)
		if err != nil {
			return
		}
		for _, s := range states {
			before, _ := json.Marshal(s)
			_ = ValidateChatAction(s, a, "me")
			for _, r := range []Reducer{{}, {Legacy05: true}} {
				n := r.Chat(s, a)
				if _, err := json.Marshal(n); err != nil {
					t.Fatalf("result not encodable: %v", err)
				}
				_ = r.Chat(n, a)
			}
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Fatalf("input mutated by %s", raw)
			}
		}
	})
}
