package ahpstate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

func fixturesDir() string {
	if d := os.Getenv("AHP_FIXTURES_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "testdata", "ahp", "fixtures")
}

// pinnedClock is the clock the official runners pin (Date.now() = 9999).
func pinnedClock() time.Time { return time.UnixMilli(9999) }

// generic decodes JSON with exact numbers and strips null object members.
func generic(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return stripNulls(v)
}

func stripNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = stripNulls(e)
		}
	case []any:
		for i := range x {
			x[i] = stripNulls(x[i])
		}
	}
	return v
}

type reducerFixture struct {
	Description string            `json:"description"`
	Reducer     string            `json:"reducer"`
	Initial     json.RawMessage   `json:"initial"`
	Actions     []json.RawMessage `json:"actions"`
	Expected    json.RawMessage   `json:"expected"`
}

// notApplicableModern lists fixtures that cannot apply to the default
// (≥0.6 input model) reducer, with the reason. They run in Legacy05 mode.
var notApplicableModern = map[string]string{
	"105-session-input-full-draft-and-complete-flow.json": "0.5-era input requests live in ChatState.inputRequests and are removed on completion; " +
		"≥0.6 keeps them as inputRequest response parts with a response (covered in Legacy05 mode)",
	"029-toolcallready-ignores-non-streaming-non-running-tool-calls.json": "in 0.5 chat/toolCallReady is a no-op on a pending-confirmation tool call; " +
		"≥1.0 applies it and merges the new fields into the pending state (covered in Legacy05 mode)",
}

func loadReducerFixtures(t *testing.T) map[string]reducerFixture {
	t.Helper()
	dir := filepath.Join(fixturesDir(), "reducers")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reducer fixtures in %s (err %v)", dir, err)
	}
	out := map[string]reducerFixture{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fx reducerFixture
		if err := json.Unmarshal(raw, &fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = fx
	}
	return out
}

func TestChatReducerFixtures(t *testing.T) {
	fixtures := loadReducerFixtures(t)
	names := make([]string, 0, len(fixtures))
	for n := range fixtures {
		names = append(names, n)
	}
	sort.Strings(names)
	for name := range notApplicableModern {
		if _, ok := fixtures[name]; !ok {
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
			for _, name := range names {
				fx := fixtures[name]
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

func runChatFixture(t *testing.T, r Reducer, fx reducerFixture) {
	t.Helper()
	s, err := ahpwire.DecodeChatState(fx.Initial)
	if err != nil {
		t.Fatalf("initial: %v", err)
	}
	enc, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := generic(t, enc), generic(t, fx.Initial); !reflect.DeepEqual(got, want) {
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
	if g, w := generic(t, got), generic(t, fx.Expected); !reflect.DeepEqual(g, w) {
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
