package ahpstate

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// notApplicable08 lists reducer kinds of the 0.8–1.0-era set that the
// project does not implement, with the reason. Their fixtures are reported
// and counted as not applicable, never failed. Every kind of the shipped
// set is implemented; newer sets add kinds (tunnel, automation,
// automationRun) that would be listed here with their reason.
var notApplicable08 = map[string]string{}

// divergences08 lists chat/session/root fixtures of the 0.8–1.0-era set
// whose expectation disagrees with the AHP 1.0.0 specification for a
// reason other than modifiedAt (see fixtures08_modified_test.go), with the
// reason; the test asserts the fixture's expectation with the top-level
// members in patch replaced (the 1.0 behaviour) instead. None is known.
var divergences08 = map[string]struct {
	reason string
	patch  map[string]string
}{}

// TestReducerFixtures08 runs every chat, session and root reducer fixture
// of the 0.8–1.0-era set (or of $AHP_FIXTURES_08_DIR) against the default
// Reducer with the runners' pinned clock, every terminal and changeset
// fixture against ReduceTerminal and ReduceChangeset, and every annotations
// and resourceWatch fixture against ReduceAnnotations and
// ReduceResourceWatch. Every fixture is counted under exactly one of these;
// a kind none of them implements must be listed in notApplicable08.
func TestReducerFixtures08(t *testing.T) {
	r := Reducer{Now: pinnedClock}
	fixtures := ahpfixtures.Reducers08(t)
	have := map[string]bool{}
	counts := map[string]int{}
	for _, fx := range fixtures {
		have[fx.File] = true
		t.Run(fx.File, func(t *testing.T) {
			switch fx.Reducer {
			case "chat":
				run08(t, fx, ahpwire.DecodeChatState, r.Chat)
			case "session":
				run08(t, fx, ahpwire.DecodeSessionState, r.Session)
			case "root":
				run08(t, fx, ahpwire.DecodeRootState, r.Root)
			case "terminal":
				run08(t, fx, ahpwire.DecodeTerminalState, ReduceTerminal)
			case "changeset":
				run08(t, fx, ahpwire.DecodeChangesetState, ReduceChangeset)
			case "annotations":
				run08(t, fx, ahpwire.DecodeAnnotationsState, ReduceAnnotations)
			case "resourceWatch":
				run08(t, fx, ahpwire.DecodeResourceWatchState, ReduceResourceWatch)
			default:
				reason, ok := notApplicable08[fx.Reducer]
				if !ok {
					t.Fatalf("reducer kind %q is neither implemented nor listed in notApplicable08", fx.Reducer)
				}
				t.Logf("not applicable: %s", reason)
				counts["not applicable"]++
				return
			}
			counts[fx.Reducer]++
		})
	}
	for name := range divergences08 {
		if !have[name] && !usingOverride() {
			t.Errorf("divergences08 names missing fixture %s", name)
		}
	}
	for name := range knownClockFixtures {
		if !have[name] && !usingOverride() {
			t.Errorf("knownClockFixtures names missing fixture %s", name)
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%s: %d fixtures", k, counts[k])
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != len(fixtures) && !t.Failed() {
		t.Errorf("counted %d of %d fixtures: %v", total, len(fixtures), counts)
	}
	if counts["chat"]+counts["session"]+counts["root"] == 0 {
		t.Fatalf("no chat, session or root fixture ran: %v", counts)
	}
	if counts["terminal"] == 0 || counts["changeset"] == 0 || counts["annotations"] == 0 || counts["resourceWatch"] == 0 {
		t.Fatalf("fixtures run: %v; want terminal, changeset, annotations and resourceWatch cases", counts)
	}
}

// usingOverride reports whether the 0.8 fixtures come from $AHP_FIXTURES_08_DIR.
func usingOverride() bool {
	_, ok := os.LookupEnv(ahpfixtures.EnvDir08)
	return ok
}

func run08[S any](t *testing.T, fx ahpfixtures.Reducer, decode func([]byte) (S, error), reduce func(S, ahpwire.Action) S) {
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
	want := ahpfixtures.Normalized(t, fx.Expected)
	if m, isObj := want.(map[string]any); isObj && m["modifiedAt"] == pinnedStamp && fx.Reducer == "chat" {
		if v, ok := modifiedAt10(fx); ok && v != pinnedStamp {
			t.Logf("diverges from 1.0: modifiedAt %s, not the pinned clock: %s", v, clockModifiedAt)
			m["modifiedAt"] = v
			if !knownClockFixtures[fx.File] {
				t.Logf("%s is not in knownClockFixtures (another fixture set?)", fx.File)
			}
		}
	}
	if knownClockFixtures[fx.File] {
		if m, _ := want.(map[string]any); m["modifiedAt"] == pinnedStamp {
			t.Errorf("knownClockFixtures lists %s but the 1.0 modifiedAt rule does not apply to it", fx.File)
		}
	}
	if d, ok := divergences08[fx.File]; ok {
		t.Logf("diverges from 1.0: %s", d.reason)
		m, isObj := want.(map[string]any)
		if !isObj {
			t.Fatal("divergence patch on a non-object expectation")
		}
		for k, v := range d.patch {
			if reflect.DeepEqual(m[k], ahpfixtures.JSON(t, []byte(v))) {
				t.Errorf("divergence entry is stale: fixture already expects %s = %s", k, v)
			}
			m[k] = ahpfixtures.JSON(t, []byte(v))
		}
	}
	got, _ := json.Marshal(s)
	if g := ahpfixtures.Normalized(t, got); !reflect.DeepEqual(g, want) {
		w, _ := json.Marshal(want)
		t.Errorf("%s\n got %s\nwant %s", fx.Description, got, w)
	}
	for i, st := range states {
		b, _ := json.Marshal(st)
		if !bytes.Equal(b, encodings[i]) {
			t.Errorf("state %d was mutated by a later action\nbefore %s\n after %s", i, encodings[i], b)
		}
	}
}
