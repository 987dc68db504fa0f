package reducer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// divergence documents a case whose `expected` state cannot be met because
// it encodes 0.5-era semantics the project (speaking 0.9/1.0) replaced. The
// case still runs: check asserts the 0.9/1.0 outcome instead, and the
// projected expectation must differ from it (so the entry cannot go stale).
type divergence struct {
	reason string
	check  func(t *testing.T, got State)
}

var fixtureDivergences = map[string]divergence{
	"029-toolcallready-ignores-non-streaming-non-running-tool-calls": {
		reason: "0.5 ignored chat/toolCallReady on a pending-confirmation tool call; since 0.9 AHP " +
			"accepts it and merges the new fields into the pending confirmation (PROTOCOL.md §6.5)",
		check: func(t *testing.T, got State) {
			b := mustBlock(t, got.Current, "tc-1")
			if b.Tool.Status != ahpwire.ToolPendingConfirmation || b.Tool.InvocationMessage == nil ||
				b.Tool.InvocationMessage.Text != "Run again" || !b.Open {
				t.Fatalf("want pending-confirmation with the new invocation message, got %+v", b.Tool)
			}
		},
	},
	"107-session-input-turn-end-cleans-turn-scoped-only": {
		reason: "0.5 kept open input requests in ChatState.inputRequests and dropped them at turn end; " +
			"ahptui lifts them into the active turn as inputRequest parts (so snapshot and incremental paths " +
			"agree, issue 21), where they stay in the finished turn as ≥0.6 input parts do (0.8 fixture 107)",
		check: func(t *testing.T, got State) {
			if got.Current != nil || len(got.Messages) == 0 {
				t.Fatalf("want the turn finished, got current %v", got.Current)
			}
			last := got.Messages[len(got.Messages)-1]
			if b := mustBlock(t, last, "form-input"); b.Kind != KindInputRequest || b.Open || len(got.PendingInputs()) != 0 {
				t.Fatalf("want a closed, unanswered input block, got %+v", b)
			}
		},
	},
	"105-session-input-full-draft-and-complete-flow": {
		reason: "0.5 kept input requests in ChatState.inputRequests and dropped them on completion; " +
			"since 0.6 they are inputRequest response parts that stay in the turn with their response",
		check: func(t *testing.T, got State) {
			b := mustBlock(t, got.Current, "input-1")
			in := b.Input
			if b.Kind != KindInputRequest || b.Open || b.Response != ahpwire.InputAccept || len(in.Questions) != 2 ||
				answerString(in.Answers["q1"]) != "node" || answerString(in.Answers["q2"]) != "Keep it small." ||
				in.Answers["q1"].State != ahpwire.AnswerDraft || len(got.PendingInputs()) != 0 {
				t.Fatalf("want a closed, accepted input request with both drafts, got %+v", in)
			}
		},
	},
}

// answerString returns an answer's value as text ("" without one).
func answerString(a ahpwire.ChatInputAnswer) string {
	if a.Value == nil {
		return ""
	}
	return a.Value.String()
}

// mustBlock returns the block with the given id in m.
func mustBlock(t *testing.T, m *Message, id string) *Block {
	t.Helper()
	if m == nil {
		t.Fatalf("no message (looking for block %s)", id)
	}
	b := m.Block(id)
	if b == nil {
		t.Fatalf("message %s has no block %s", m.ID, id)
	}
	return b
}

// outsideProjection lists ChatState fields the render model does not carry.
const outsideProjection = "modifiedAt, status bits (IsRead, InputNeeded, ...), title, draft, " +
	"changesets, background work, working directories and _meta of the chat"

func TestReducerFixtures(t *testing.T) {
	fixtures := ahpfixtures.Reducers(t)
	t.Logf("fields outside the projection: %s", outsideProjection)
	var ran, diverged, notApplicable int
	for _, fx := range fixtures {
		name := strings.TrimSuffix(fx.File, ".json")
		t.Run(name, func(t *testing.T) {
			if fx.Reducer != "chat" {
				notApplicable++
				t.Logf("NOT APPLICABLE: reducer %q is not the chat reducer (this package renders chats only)", fx.Reducer)
				return
			}
			got, want := runFixture(t, fx)
			if d, ok := fixtureDivergences[name]; ok {
				diverged++
				t.Logf("DIVERGES from 0.5-era expectation: %s", d.reason)
				if reflect.DeepEqual(canonState(got), canonState(want)) {
					t.Fatalf("listed as divergent but matches the fixture; remove the entry")
				}
				d.check(t, got)
				return
			}
			ran++
			if g, w := canonState(got), canonState(want); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s\n got: %s\nwant: %s", fx.Description, dump(g), dump(w))
			}
		})
	}
	t.Logf("fixtures: %d matched, %d diverged (listed), %d not applicable", ran, diverged, notApplicable)
}

// runFixture projects initial, applies every action (AHP state by
// ahpstate, transcript by the derived actions), and projects expected.
func runFixture(t *testing.T, fx ahpfixtures.Reducer) (got, want State) {
	t.Helper()
	initial, err := ahpwire.DecodeChatState(fx.Initial)
	if err != nil {
		t.Fatalf("initial: %v", err)
	}
	expected, err := ahpwire.DecodeChatState(fx.Expected)
	if err != nil {
		t.Fatalf("expected: %v", err)
	}
	cs, got := initial, Project(initial)
	for i, raw := range fx.Actions {
		a, err := ahpwire.DecodeAction(raw)
		if err != nil {
			t.Fatalf("action %d: %v", i, err)
		}
		cs, got, _ = ApplyAction(cs, got, a)
	}
	return got, Project(expected)
}

func dump(v any) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
