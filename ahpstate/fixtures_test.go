package ahpstate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// pinnedClock is the clock the official runners pin (Date.now() = 9999).
func pinnedClock() time.Time { return time.UnixMilli(9999) }

// notApplicableModern lists fixtures that cannot apply to the default
// (≥0.6 input model) reducer, with the reason. They run in Legacy05 mode.
var notApplicableModern = map[string]string{
	"105-session-input-full-draft-and-complete-flow.json": "0.5-era input requests live in ChatState.inputRequests and are removed on completion; " +
		"≥0.6 keeps them as inputRequest response parts with a response (covered in Legacy05 mode)",
	"029-toolcallready-ignores-non-streaming-non-running-tool-calls.json": "in 0.5 chat/toolCallReady is a no-op on a pending-confirmation tool call; " +
		"≥1.0 applies it and merges the new fields into the pending state (covered in Legacy05 mode)",
}

func TestChatReducerFixtures(t *testing.T) {
	fixtures := ahpfixtures.Reducers(t)
	have := map[string]bool{}
	for _, fx := range fixtures {
		have[fx.File] = true
	}
	for name := range notApplicableModern {
		if !have[name] {
			t.Errorf("notApplicableModern names missing fixture %s", name)
		}
	}
	modes := []struct {
		name string
		r    Reducer
	}{
		{"modern", Reducer{Now: pinnedClock}},
		{"legacy05", Reducer{Now: pinnedClock, Legacy05: true}},
	}
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			ran := 0
			for _, fx := range fixtures {
				name := fx.File
				t.Run(name, func(t *testing.T) {
					if fx.Reducer != "chat" {
						t.Fatalf("reducer %q: only chat fixtures are expected in this set", fx.Reducer)
					}
					if reason, ok := notApplicableModern[name]; ok && !mode.r.Legacy05 {
						t.Logf("cannot apply: %s", reason)
						return
					}
					runChatFixture(t, mode.r, fx)
					ran++
				})
			}
			if ran == 0 {
				t.Fatal("no fixture ran")
			}
		})
	}
}

func runChatFixture(t *testing.T, r Reducer, fx ahpfixtures.Reducer) {
	t.Helper()
	s, err := ahpwire.DecodeChatState(fx.Initial)
	if err != nil {
		t.Fatalf("initial: %v", err)
	}
	enc, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ahpfixtures.Normalized(t, enc), ahpfixtures.Normalized(t, fx.Initial); !reflect.DeepEqual(got, want) {
		t.Fatalf("initial state does not survive a round trip\n got %s\nwant %s", enc, fx.Initial)
	}
	states := []ahpwire.ChatState{s}
	encodings := [][]byte{enc}
	for i, raw := range fx.Actions {
		a, err := ahpwire.DecodeAction(raw)
		if err != nil {
			t.Fatalf("action %d: %v", i, err)
		}
		if _, unknown := a.(*ahpwire.UnknownAction); unknown {
			t.Fatalf("action %d: type %s not modelled", i, a.ActionType())
		}
		s = r.Chat(s, a)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, s)
		encodings = append(encodings, b)
	}
	got, _ := json.Marshal(s)
	if g, w := ahpfixtures.Normalized(t, got), ahpfixtures.Normalized(t, fx.Expected); !reflect.DeepEqual(g, w) {
		t.Errorf("%s\n got %s\nwant %s", fx.Description, got, fx.Expected)
	}
	// Immutability: no earlier state changed while later ones were built.
	for i, st := range states {
		b, _ := json.Marshal(st)
		if !bytes.Equal(b, encodings[i]) {
			t.Errorf("state %d was mutated by a later action\nbefore %s\n after %s", i, encodings[i], b)
		}
	}
}
