package ahpstate

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

func TestSessionReducer(t *testing.T) {
	s := ahpwire.SessionState{Provider: "demo", Title: "s", Status: ahpwire.StatusInProgress | ahpwire.StatusIsRead, Lifecycle: ahpwire.LifecycleCreating,
		Config: &ahpwire.ConfigState{Values: map[string]json.RawMessage{"a": json.RawMessage(`1`)}}}
	orig := mustJSON(t, s)
	chat := ahpwire.ChatSummary{Resource: "ahp-chat:/c", Title: "c", Status: ahpwire.StatusIdle}
	n := Reducer{}.Session(s, &ahpwire.SessionReady{})
	for _, a := range []ahpwire.Action{
		&ahpwire.SessionChatAdded{Summary: chat},
		&ahpwire.SessionChatAdded{Summary: chat},
		&ahpwire.SessionDefaultChatChanged{DefaultChat: chat.Resource},
		&ahpwire.SessionChatUpdated{Chat: chat.Resource, Changes: ahpwire.PartialChatSummary{Title: ahpwire.Ptr("renamed")}},
		&ahpwire.SessionChatUpdated{Chat: "ahp-chat:/unknown", Changes: ahpwire.PartialChatSummary{Title: ahpwire.Ptr("x")}},
		&ahpwire.SessionTitleChanged{Title: "S"},
		&ahpwire.SessionIsArchivedChanged{IsArchived: true},
		&ahpwire.SessionActiveClientSet{ActiveClient: ahpwire.SessionActiveClient{ClientID: "me"}},
		&ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{"b": json.RawMessage(`2`)}},
		&ahpwire.SessionInputNeededSet{Request: ahpwire.SessionInputRequest{ID: "i", Chat: chat.Resource, Kind: ahpwire.InputNeededToolConfirmation}},
	} {
		n = ReduceSession(n, a)
	}
	if n.Lifecycle != ahpwire.LifecycleReady || len(n.Chats) != 1 || n.Chats[0].Title != "renamed" || n.DefaultChat != chat.Resource ||
		n.Title != "S" || !n.Status.Has(ahpwire.StatusIsArchived) || len(n.ActiveClients) != 1 || len(n.Config.Values) != 2 ||
		n.Status.Activity() != ahpwire.StatusInputNeeded || !n.Status.Has(ahpwire.StatusIsRead) {
		t.Fatalf("session %s", mustJSON(t, n))
	}
	n = ReduceSession(n, &ahpwire.SessionInputNeededRemoved{ID: "i"})
	if n.InputNeeded != nil || n.Status.Activity() != ahpwire.StatusInProgress {
		t.Errorf("after inputNeededRemoved: %s", mustJSON(t, n))
	}
	n = ReduceSession(n, &ahpwire.SessionChatRemoved{Chat: chat.Resource})
	if len(n.Chats) != 0 || n.DefaultChat != "" {
		t.Errorf("chatRemoved: %s", mustJSON(t, n))
	}
	f := ReduceSession(s, &ahpwire.SessionCreationFailed{Error: ahpwire.ErrorInfo{ErrorType: "x", Message: "no"}})
	if f.Lifecycle != ahpwire.LifecycleCreationFailed || f.CreationError.Message != "no" {
		t.Errorf("creationFailed: %s", mustJSON(t, f))
	}
	if mustJSON(t, s) != orig {
		t.Errorf("input session mutated: %s", mustJSON(t, s))
	}
}

func TestRootReducer(t *testing.T) {
	r := ahpwire.RootState{Config: &ahpwire.ConfigState{Values: map[string]json.RawMessage{"a": json.RawMessage(`1`)}}}
	orig := mustJSON(t, r)
	n := ReduceRoot(r, &ahpwire.RootAgentsChanged{Agents: []ahpwire.AgentInfo{{Provider: "demo"}}})
	n = ReduceRoot(n, &ahpwire.RootActiveSessionsChanged{ActiveSessions: 3})
	n = ReduceRoot(n, &ahpwire.RootConfigChanged{Config: map[string]json.RawMessage{"b": json.RawMessage(`2`)}, Replace: true})
	if len(n.Agents) != 1 || *n.ActiveSessions != 3 || len(n.Config.Values) != 1 || n.Config.Values["b"] == nil {
		t.Fatalf("root %s", mustJSON(t, n))
	}
	if mustJSON(t, r) != orig {
		t.Errorf("input root mutated")
	}
	if ActionScope(&ahpwire.RootAgentsChanged{}) != ScopeRoot || ChannelKind("ahp-chat:/x") != ScopeChat || ChannelKind("ahp-session:/s") != ScopeSession || ChannelKind("file:///") != "" {
		t.Error("scope helpers")
	}
}

func TestSessionWorkingDirectoryReplaced(t *testing.T) {
	cases := []struct {
		name       string
		dirs       []string
		from, repl string
		want       []string
	}{
		{"in place", []string{"a", "b", "c"}, "b", "x", []string{"a", "x", "c"}},
		{"unknown is no-op", []string{"a"}, "z", "x", []string{"a"}},
		{"replacement earlier drops dir", []string{"x", "a", "b"}, "b", "x", []string{"x", "a"}},
		{"replacement later is deduplicated", []string{"a", "b", "x"}, "a", "x", []string{"x", "b"}},
		{"absent list", nil, "a", "x", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := slices.Clone(c.dirs)
			s := ReduceSession(ahpwire.SessionState{WorkingDirectories: c.dirs},
				&ahpwire.SessionWorkingDirectoryReplaced{Directory: c.from, Replacement: c.repl})
			if !slices.Equal(s.WorkingDirectories, c.want) {
				t.Errorf("got %v, want %v", s.WorkingDirectories, c.want)
			}
			if !slices.Equal(c.dirs, before) {
				t.Errorf("input mutated: %v, was %v", c.dirs, before)
			}
		})
	}
}

func TestCustomizationToggledReachesChildren(t *testing.T) {
	s := ahpwire.SessionState{Customizations: []json.RawMessage{
		json.RawMessage(`{"type":"plugin","id":"p","enabled":true,"children":[{"type":"skill","id":"k","enabled":true}]}`),
		json.RawMessage(`{"type":"plugin","id":"q","enabled":true}`),
	}}
	before, _ := json.Marshal(s)
	got := ReduceSession(s, &ahpwire.SessionCustomizationToggled{ID: "k", Enabled: false})
	var list []struct {
		ID       string `json:"id"`
		Enabled  bool   `json:"enabled"`
		Children []struct {
			ID      string `json:"id"`
			Enabled bool   `json:"enabled"`
		} `json:"children"`
	}
	b, _ := json.Marshal(got.Customizations)
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	if !list[0].Enabled || list[0].Children[0].Enabled || !list[1].Enabled {
		t.Errorf("toggle of child k: %s", b)
	}
	if after, _ := json.Marshal(s); string(after) != string(before) {
		t.Errorf("input state mutated")
	}
	same := ReduceSession(s, &ahpwire.SessionCustomizationToggled{ID: "zz"})
	if b, _ := json.Marshal(same); string(b) != string(before) {
		t.Errorf("unknown id changed the state: %s", b)
	}
}
