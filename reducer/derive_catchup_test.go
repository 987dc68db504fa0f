package reducer

import (
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// applyAll moves AHP's chat state cs along the actions (JSON), as a host
// does while a client is away.
func applyAll(t *testing.T, cs ahpwire.ChatState, actions ...string) ahpwire.ChatState {
	t.Helper()
	for _, a := range actions {
		cs, _, _ = Apply(cs, State{}, chatEnv(t, a))
	}
	return cs
}

// TestDeriveCatchesUpAfterSnapshot: with no action (a snapshot replaced
// the chat's state after a reconnect), Derive yields what happened
// meanwhile — a turn that started, the end of one that ended, the active
// turn's growth — and the transcript it carries equals the projection of
// the new state (what `ahptui exec` prints after a reconnect).
func TestDeriveCatchesUpAfterSnapshot(t *testing.T) {
	c := activeChat(t)
	idle := applyAll(t, c.ahp, `{"type":"chat/turnComplete","turnId":"t2","duration":10}`)
	tests := []struct {
		name          string
		before, after ahpwire.ChatState
		want          string
	}{
		{"grew", c.ahp, applyAll(t, c.ahp, `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`), "BlockDelta"},
		{"ended", c.ahp, applyAll(t, c.ahp, `{"type":"chat/delta","turnId":"t2","partId":"p1","content":"lo"}`,
			`{"type":"chat/turnComplete","turnId":"t2","duration":10}`), "BlockDelta,BlockUpdate,BlockEnd,BlockEnd,MessageEnd"},
		{"started", idle, applyAll(t, idle,
			`{"type":"chat/turnStarted","turnId":"t3","startedAt":"2026-10-05T10:02:00.000Z","message":{"text":"hi","origin":{"kind":"user"}}}`,
			`{"type":"chat/responsePart","turnId":"t3","part":{"kind":"markdown","id":"p9","content":"yes"}}`),
			"UserMessage,MessageStart,BlockStart"},
		{"unchanged", c.ahp, c.ahp, ""},
	}
	for _, tc := range tests {
		view := Project(tc.before)
		acts := Derive(nil, tc.before, tc.after)
		if got := kinds(acts); got != tc.want {
			t.Errorf("%s: got [%s], want [%s]", tc.name, got, tc.want)
		}
		if g, w := canonState(ReduceAll(view, acts...)), canonState(Project(tc.after)); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: derived state differs from the projection\n got %s\nwant %s", tc.name, dump(g), dump(w))
		}
	}
}
