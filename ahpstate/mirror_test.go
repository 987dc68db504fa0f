package ahpstate

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// fixtureChannels names a channel of each reducer kind of the fixtures.
var fixtureChannels = map[string]string{
	"chat":          "ahp-chat:/fx",
	"session":       "ahp-session:/fx",
	"root":          ahpwire.RootURI,
	"terminal":      ahpwire.TerminalScheme + "/fx",
	"changeset":     ahpwire.ChangesetScheme + "/fx",
	"annotations":   ahpwire.AnnotationsURI("ahp-session:/fx"),
	"resourceWatch": ahpwire.ResourceWatchScheme + "/fx",
}

// TestMirrorFixtures runs every reducer fixture of both sets whose kind the
// Mirror keeps through a Mirror (the initial state as a snapshot, each
// action as an envelope) and checks that it ends where the kind's reducer
// ends, with each Change's Before equal to the previous Change's After.
// The reducers' own fixture tests check that end against the expectation.
func TestMirrorFixtures(t *testing.T) {
	r := Reducer{Now: pinnedClock}
	reduce := map[string]func(json.RawMessage, []ahpwire.Action) (any, error){
		"chat":          reduceAll(ahpwire.DecodeChatState, r.Chat),
		"session":       reduceAll(ahpwire.DecodeSessionState, r.Session),
		"root":          reduceAll(ahpwire.DecodeRootState, r.Root),
		"terminal":      reduceAll(ahpwire.DecodeTerminalState, ReduceTerminal),
		"changeset":     reduceAll(ahpwire.DecodeChangesetState, ReduceChangeset),
		"annotations":   reduceAll(ahpwire.DecodeAnnotationsState, ReduceAnnotations),
		"resourceWatch": reduceAll(ahpwire.DecodeResourceWatchState, ReduceResourceWatch),
	}
	ran := map[string]int{}
	fixtures := append(ahpfixtures.Reducers(t), ahpfixtures.Reducers08(t)...)
	for _, fx := range fixtures {
		uri, ok := fixtureChannels[fx.Reducer]
		if !ok {
			continue
		}
		t.Run(fx.Reducer+"/"+fx.File, func(t *testing.T) {
			actions := make([]ahpwire.Action, len(fx.Actions))
			for i, raw := range fx.Actions {
				a, err := ahpwire.DecodeAction(raw)
				if err != nil {
					t.Fatalf("action %d: %v", i, err)
				}
				actions[i] = a
			}
			want, err := reduce[fx.Reducer](fx.Initial, actions)
			if err != nil {
				t.Fatalf("initial: %v", err)
			}
			m := NewMirror(r)
			ch, err := m.Load(ahpwire.Snapshot{Resource: uri, State: fx.Initial})
			if err != nil || !ch.Known || ch.Before != nil {
				t.Fatalf("Load: %+v, %v", ch, err)
			}
			prev := ch.After
			for i, a := range actions {
				ch := m.Apply(ahpwire.ActionEnvelope{Channel: uri, ServerSeq: uint64(i + 1), Action: a})
				if !ch.Known || ch.Kind != MirrorKind(uri) {
					t.Fatalf("action %d: %+v", i, ch)
				}
				if jsonOf(t, ch.Before) != jsonOf(t, prev) {
					t.Fatalf("action %d: Before is not the previous After", i)
				}
				prev = ch.After
			}
			if g, w := jsonOf(t, prev), jsonOf(t, want); g != w {
				t.Errorf("%s\nmirror  %s\nreducer %s", fx.Description, g, w)
			}
			if g := jsonOf(t, m.current(uri).After); g != jsonOf(t, want) {
				t.Errorf("the Mirror holds %s, its last Change said %s", g, jsonOf(t, want))
			}
		})
		ran[fx.Reducer]++
	}
	for kind := range fixtureChannels {
		if ran[kind] == 0 {
			t.Errorf("no %s fixture ran: %v", kind, ran)
		}
	}
}

// reduceAll decodes an initial state and applies actions with reduce.
func reduceAll[S any](decode func([]byte) (S, error), reduce func(S, ahpwire.Action) S) func(json.RawMessage, []ahpwire.Action) (any, error) {
	return func(raw json.RawMessage, actions []ahpwire.Action) (any, error) {
		s, err := decode(raw)
		if err != nil {
			return nil, err
		}
		for _, a := range actions {
			s = reduce(s, a)
		}
		return s, nil
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// creatingSession loads a session snapshot {lifecycle: creating}.
func creatingSession(t *testing.T, m *Mirror, uri string) {
	t.Helper()
	st, err := ahpwire.NewSnapshot(uri, ahpwire.SessionState{Lifecycle: ahpwire.LifecycleCreating}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Load(st); err != nil {
		t.Fatal(err)
	}
}

// TestMirrorSessionChats: chatAdded upserts by resource and chatRemoved
// removes (the two reproductions of issue 19, at the Mirror's level).
func TestMirrorSessionChats(t *testing.T) {
	const s = "ahp-session:/s1"
	added := func(res, title string) ahpwire.ActionEnvelope {
		return ahpwire.ActionEnvelope{Channel: s, Action: &ahpwire.SessionChatAdded{Summary: ahpwire.ChatSummary{Resource: res, Title: title}}}
	}
	ready := ahpwire.ActionEnvelope{Channel: s, Action: &ahpwire.SessionReady{}}

	m := NewMirror(Reducer{})
	creatingSession(t, m, s)
	m.Apply(added("ahp-chat:/x", "draft"))
	m.Apply(added("ahp-chat:/x", "final"))
	ch := m.Apply(ready)
	_, st, ok := ch.Session()
	if !ok || st.Lifecycle != ahpwire.LifecycleReady || len(st.Chats) != 1 || st.Chats[0].Title != "final" {
		t.Fatalf("after chatAdded twice for one chat: %+v", st)
	}

	m = NewMirror(Reducer{})
	creatingSession(t, m, s)
	m.Apply(added("ahp-chat:/x", "x"))
	m.Apply(added("ahp-chat:/y", "y"))
	m.Apply(ahpwire.ActionEnvelope{Channel: s, Action: &ahpwire.SessionChatRemoved{Chat: "ahp-chat:/y"}})
	m.Apply(ready)
	st, _ = m.Session(s)
	if len(st.Chats) != 1 || st.Chats[0].Resource != "ahp-chat:/x" {
		t.Fatalf("after chatRemoved y: %+v", st.Chats)
	}
}

// TestMirrorIgnores: envelopes of channels the Mirror does not hold, of
// kinds it does not keep, rejected ones and dropped channels change nothing.
func TestMirrorIgnores(t *testing.T) {
	const s = "ahp-session:/s1"
	title := func(t string) ahpwire.ActionEnvelope {
		return ahpwire.ActionEnvelope{Channel: s, Action: &ahpwire.SessionTitleChanged{Title: t}}
	}
	m := NewMirror(Reducer{}, ScopeSession)
	if ch := m.Apply(title("a")); ch.Known {
		t.Fatalf("an envelope before the snapshot applied: %+v", ch)
	}
	if ch, err := m.Load(ahpwire.Snapshot{Resource: "ahp-chat:/c", State: json.RawMessage(`{}`)}); err != nil || ch.Known || m.Holds("ahp-chat:/c") {
		t.Fatalf("a chat snapshot loaded into a session-only Mirror: %+v %v", ch, err)
	}
	if _, err := m.Load(ahpwire.Snapshot{Resource: s, State: json.RawMessage(`[`)}); err == nil || m.Holds(s) {
		t.Fatal("a bad snapshot loaded")
	}
	creatingSession(t, m, s)
	rej := title("b")
	rej.RejectionReason = "no"
	if _, st, _ := m.Apply(rej).Session(); st.Title != "" {
		t.Fatalf("a rejected envelope applied: %q", st.Title)
	}
	if b, a, _ := m.Apply(title("c")).Session(); b.Title != "" || a.Title != "c" {
		t.Fatalf("before %q after %q", b.Title, a.Title)
	}
	m.Drop(s)
	if ch := m.Apply(title("d")); ch.Known || m.Holds(s) {
		t.Fatalf("a dropped channel applied: %+v", ch)
	}
}
