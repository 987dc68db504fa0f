package ahpstate

import "testing"

func TestCheckRequiredFields(t *testing.T) {
	tests := []struct {
		name, raw string
		ok        bool
	}{
		{"turnStarted complete", `{"type":"chat/turnStarted","turnId":"t","startedAt":"2026-01-01T00:00:00Z","message":{"text":"x"}}`, true},
		{"turnStarted without startedAt", `{"type":"chat/turnStarted","turnId":"t","message":{"text":"x"}}`, false},
		{"turnCancelled without duration", `{"type":"chat/turnCancelled","turnId":"t"}`, false},
		{"turnCancelled duration null", `{"type":"chat/turnCancelled","turnId":"t","duration":null}`, false},
		{"turnCancelled complete", `{"type":"chat/turnCancelled","turnId":"t","duration":0}`, true},
		{"approve without confirmed", `{"type":"chat/toolCallConfirmed","turnId":"t","toolCallId":"c","approved":true}`, false},
		{"deny without reason", `{"type":"chat/toolCallConfirmed","turnId":"t","toolCallId":"c","approved":false}`, false},
		{"deny with reason", `{"type":"chat/toolCallConfirmed","turnId":"t","toolCallId":"c","approved":false,"reason":"denied"}`, true},
		{"isRead missing", `{"type":"chat/isReadChanged"}`, false},
		{"session title missing", `{"type":"session/titleChanged"}`, false},
		{"draft cleared", `{"type":"chat/draftChanged"}`, true},
		{"no type", `{"turnId":"t"}`, false},
		{"not an object", `[1]`, false},
	}
	for _, tc := range tests {
		err := CheckRequiredFields([]byte(tc.raw))
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil {
			if _, isRej := err.(*Rejection); !isRej {
				t.Errorf("%s: %T is not a *Rejection", tc.name, err)
			}
		}
	}
	// Every listed type is client-dispatchable (the table has no typos).
	for typ := range requiredFields {
		if !clientDispatchable[typ] {
			t.Errorf("%s is not client-dispatchable", typ)
		}
	}
}
