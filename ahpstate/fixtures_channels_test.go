package ahpstate

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// channelDivergences lists terminal/changeset fixtures of the 0.8 set whose
// expectation differs from AHP 1.0.0, with the reason; the test asserts
// the 1.0 behaviour given here instead. None is known today: every
// terminal and changeset fixture of the set agrees with the 1.0 reducers
// (types/channels-terminal/reducer.ts, types/channels-changeset/reducer.ts).
var channelDivergences = map[string]struct {
	reason   string
	expected string
}{}

// TestTerminalChangesetFixtures runs every terminal and changeset reducer
// fixture of the 0.8–1.0-era set (or of $AHP_FIXTURES_DIR) against
// ReduceTerminal and ReduceChangeset. Other kinds are reported and left to
// their own tests.
func TestTerminalChangesetFixtures(t *testing.T) {
	ran := map[string]int{}
	for _, fx := range ahpfixtures.Reducers08(t) {
		t.Run(fx.File, func(t *testing.T) {
			switch fx.Reducer {
			case "terminal":
				runChannelFixture(t, fx, ahpwire.DecodeTerminalState, ReduceTerminal)
			case "changeset":
				runChannelFixture(t, fx, ahpwire.DecodeChangesetState, ReduceChangeset)
			default:
				t.Logf("reducer %q: not a terminal/changeset fixture (covered elsewhere or not applicable)", fx.Reducer)
				return
			}
			ran[fx.Reducer]++
		})
	}
	if ran["terminal"] == 0 || ran["changeset"] == 0 {
		t.Fatalf("fixtures run: %v; want terminal and changeset cases", ran)
	}
}

func runChannelFixture[S any](t *testing.T, fx ahpfixtures.Reducer, decode func([]byte) (S, error), reduce func(S, ahpwire.Action) S) {
	t.Helper()
	s, err := decode(fx.Initial)
	if err != nil {
		t.Fatalf("initial: %v", err)
	}
	enc, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := ahpfixtures.Normalized(t, enc), ahpfixtures.Normalized(t, fx.Initial); !reflect.DeepEqual(g, w) {
		t.Fatalf("initial state does not survive a round trip\n got %s\nwant %s", enc, fx.Initial)
	}
	states, encodings := []S{s}, [][]byte{enc}
	for i, raw := range fx.Actions {
		a, err := ahpwire.DecodeAction(raw)
		if err != nil {
			t.Fatalf("action %d: %v", i, err)
		}
		s = reduce(s, a)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		states, encodings = append(states, s), append(encodings, b)
	}
	want := []byte(fx.Expected)
	if d, ok := channelDivergences[fx.File]; ok {
		t.Logf("diverges from 1.0: %s", d.reason)
		want = []byte(d.expected)
	}
	got, _ := json.Marshal(s)
	if g, w := ahpfixtures.Normalized(t, got), ahpfixtures.Normalized(t, want); !reflect.DeepEqual(g, w) {
		t.Errorf("%s\n got %s\nwant %s", fx.Description, got, want)
	}
	for i, st := range states {
		b, _ := json.Marshal(st)
		if !bytes.Equal(b, encodings[i]) {
			t.Errorf("state %d was mutated by a later action\nbefore %s\n after %s", i, encodings[i], b)
		}
	}
}
