package reducer

import (
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// TestProjectAgreesWithApplyOnEveryFixturePrefix is the property of issue
// 21: for every official chat reducer fixture (both sets) and every prefix
// of its actions, projecting AHP's state after the prefix (Project) shows
// the same transcript as the state Apply built action by action from the
// projection of the initial state. The incremental and the snapshot path
// may never disagree (e.g. on pending input requests with draft answers).
func TestProjectAgreesWithApplyOnEveryFixturePrefix(t *testing.T) {
	sets := map[string][]ahpfixtures.Reducer{"0.5": ahpfixtures.Reducers(t), "0.8": ahpfixtures.Reducers08(t)}
	ran := 0
	for set, fixtures := range sets {
		for _, fx := range fixtures {
			if fx.Reducer != "chat" {
				continue
			}
			t.Run(set+"/"+fx.File, func(t *testing.T) {
				cs, err := ahpwire.DecodeChatState(fx.Initial)
				if err != nil {
					t.Skipf("initial state not a chat state: %v", err)
				}
				view := Project(cs)
				for i, raw := range fx.Actions {
					a, err := ahpwire.DecodeAction(raw)
					if err != nil {
						t.Fatalf("action %d: %v", i, err)
					}
					var acts []Action
					cs, view, acts = ApplyAction(cs, view, a)
					if g, w := canonState(view), canonState(Project(cs)); !reflect.DeepEqual(g, w) {
						t.Fatalf("after %d/%d actions (last %s, derived %v) Apply and Project disagree\napply:   %s\nproject: %s",
							i+1, len(fx.Actions), raw, kinds(acts), dump(g), dump(w))
					}
				}
			})
			ran++
		}
	}
	if ran == 0 {
		t.Fatal("no chat fixture ran")
	}
}

// TestLegacyInputRequestsApplyAgreesWithProject: a 0.5-era host's chat
// snapshot keeps an open input request with draft answers in
// ChatState.inputRequests, while its actions (chat/inputRequested,
// chat/inputAnswerChanged) build inputRequest parts. The snapshot path and
// the incremental path show the same input block with the same drafts, and
// later actions keep editing it.
func TestLegacyInputRequestsApplyAgreesWithProject(t *testing.T) {
	snap := `{"resource":"ahp-chat:/c","title":"t","status":16,"modifiedAt":"2026-01-01T00:00:00.000Z","turns":[],
	 "activeTurn":{"id":"t1","message":{"text":"hi","origin":{"kind":"user"}},"responseParts":[]},
	 "inputRequests":[{"id":"in1","message":"Pick","questions":[{"id":"q1","kind":"text","message":"Name?"}],
	   "answers":{"q1":{"state":"draft","value":{"kind":"text","value":"Ada"}}}}]}`
	cs, err := ahpwire.DecodeChatState([]byte(snap))
	if err != nil {
		t.Fatal(err)
	}
	view := Project(cs)
	in := view.PendingInputs()
	if len(in) != 1 || answerString(in[0].Input.Answers["q1"]) != "Ada" {
		t.Fatalf("snapshot: want one pending input with the draft, got %d (%s)", len(in), dump(canonState(view)))
	}
	for _, raw := range []string{
		`{"type":"chat/inputAnswerChanged","requestId":"in1","questionId":"q1","answer":{"state":"draft","value":{"kind":"text","value":"Grace"}}}`,
		`{"type":"chat/inputCompleted","requestId":"in1","response":"accept"}`,
	} {
		a, err := ahpwire.DecodeAction([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		cs, view, _ = ApplyAction(cs, view, a)
		if g, w := canonState(view), canonState(Project(cs)); !reflect.DeepEqual(g, w) {
			t.Fatalf("after %s Apply and Project disagree\napply:   %s\nproject: %s", raw, dump(g), dump(w))
		}
	}
	b := mustBlock(t, view.Current, "in1")
	if b.Open || b.Response != ahpwire.InputAccept || answerString(b.Input.Answers["q1"]) != "Grace" {
		t.Fatalf("want the accepted input with the edited draft, got %+v", b.Input)
	}
}
