package ahpstate

import (
	"encoding/json"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// decodeActions decodes wire actions, failing on an unmodelled type.
func decodeActions(t *testing.T, raws ...string) []ahpwire.Action {
	t.Helper()
	out := make([]ahpwire.Action, 0, len(raws))
	for _, raw := range raws {
		a, err := ahpwire.DecodeAction(json.RawMessage(raw))
		if err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		if _, unknown := a.(*ahpwire.UnknownAction); unknown {
			t.Fatalf("action %s not modelled", a.ActionType())
		}
		out = append(out, a)
	}
	return out
}

// customizationsFixture is a plugin container with a skill and an MCP
// server child, a top-level MCP server, and a top-level directory.
const customizationsFixture = `[
 {"id":"plug","type":"plugin","enabled":true,"children":[
   {"id":"skill","type":"skill","enabled":true},
   {"id":"mcpkid","type":"mcpServer","state":{"kind":"stopped"}}]},
 {"id":"mcp","type":"mcpServer","state":{"kind":"stopped"}},
 {"id":"dir","type":"directory","children":[{"id":"rule","type":"rule"}]}]`

// TestSessionCustomizationRules covers sessionReducer's customization
// cases (RULES.md, session table) one action at a time.
func TestSessionCustomizationRules(t *testing.T) {
	tests := []struct {
		name   string
		action string
		want   string // customizations after; "" = unchanged
	}{
		{"removed top-level", `{"type":"session/customizationRemoved","id":"mcp"}`,
			`[{"id":"plug","type":"plugin","enabled":true,"children":[{"id":"skill","type":"skill","enabled":true},{"id":"mcpkid","type":"mcpServer","state":{"kind":"stopped"}}]},{"id":"dir","type":"directory","children":[{"id":"rule","type":"rule"}]}]`},
		{"removed child of a container", `{"type":"session/customizationRemoved","id":"skill"}`,
			`[{"id":"plug","type":"plugin","enabled":true,"children":[{"id":"mcpkid","type":"mcpServer","state":{"kind":"stopped"}}]},{"id":"mcp","type":"mcpServer","state":{"kind":"stopped"}},{"id":"dir","type":"directory","children":[{"id":"rule","type":"rule"}]}]`},
		{"removed unknown id", `{"type":"session/customizationRemoved","id":"nope"}`, ""},
		{"toggled child", `{"type":"session/customizationToggled","id":"rule","enabled":false}`,
			`[{"id":"plug","type":"plugin","enabled":true,"children":[{"id":"skill","type":"skill","enabled":true},{"id":"mcpkid","type":"mcpServer","state":{"kind":"stopped"}}]},{"id":"mcp","type":"mcpServer","state":{"kind":"stopped"}},{"id":"dir","type":"directory","children":[{"enabled":false,"id":"rule","type":"rule"}]}]`},
		{"mcp state top-level", `{"type":"session/mcpServerStateChanged","id":"mcp","state":{"kind":"running"},"channel":"ahp-mcp:/m"}`,
			`[{"id":"plug","type":"plugin","enabled":true,"children":[{"id":"skill","type":"skill","enabled":true},{"id":"mcpkid","type":"mcpServer","state":{"kind":"stopped"}}]},{"channel":"ahp-mcp:/m","id":"mcp","state":{"kind":"running"},"type":"mcpServer"},{"id":"dir","type":"directory","children":[{"id":"rule","type":"rule"}]}]`},
		{"mcp state child", `{"type":"session/mcpServerStateChanged","id":"mcpkid","state":{"kind":"running"}}`,
			`[{"id":"plug","type":"plugin","enabled":true,"children":[{"id":"skill","type":"skill","enabled":true},{"id":"mcpkid","state":{"kind":"running"},"type":"mcpServer"}]},{"id":"mcp","type":"mcpServer","state":{"kind":"stopped"}},{"id":"dir","type":"directory","children":[{"id":"rule","type":"rule"}]}]`},
		{"mcp state on a container is a no-op", `{"type":"session/mcpServerStateChanged","id":"plug","state":{"kind":"running"}}`, ""},
		{"mcp state on a non-MCP child is a no-op", `{"type":"session/mcpServerStateChanged","id":"skill","state":{"kind":"running"}}`, ""},
		{"mcp start on a non-MCP child is a no-op", `{"type":"session/mcpServerStartRequested","id":"rule"}`, ""},
		{"mcp stop on a directory is a no-op", `{"type":"session/mcpServerStopRequested","id":"dir"}`, ""},
		{"mcp start child", `{"type":"session/mcpServerStartRequested","id":"mcpkid"}`,
			`[{"id":"plug","type":"plugin","enabled":true,"children":[{"id":"skill","type":"skill","enabled":true},{"id":"mcpkid","state":{"kind":"starting"},"type":"mcpServer"}]},{"id":"mcp","type":"mcpServer","state":{"kind":"stopped"}},{"id":"dir","type":"directory","children":[{"id":"rule","type":"rule"}]}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var list []json.RawMessage
			if err := json.Unmarshal([]byte(customizationsFixture), &list); err != nil {
				t.Fatal(err)
			}
			s := ahpwire.SessionState{Customizations: list}
			before := mustJSON(t, s.Customizations)
			n := ReduceSession(s, decodeActions(t, tc.action)[0])
			want := tc.want
			if want == "" {
				want = before
			}
			if got := canonJSON(t, n.Customizations); got != canonJSON(t, json.RawMessage(want)) {
				t.Errorf("got  %s\nwant %s", got, canonJSON(t, json.RawMessage(want)))
			}
			if mustJSON(t, s.Customizations) != before {
				t.Error("input state mutated")
			}
		})
	}
}

// canonJSON re-encodes v through any so member order does not matter.
func canonJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(x)
	return string(b)
}

// TestSessionCreationFailedRule: sessionReducer SessionCreationFailed sets
// SessionLifecycle.CreationFailed ("creationFailed") and creationError.
func TestSessionCreationFailedRule(t *testing.T) {
	a := decodeActions(t, `{"type":"session/creationFailed","error":{"errorType":"x","message":"boom"}}`)[0]
	n := ReduceSession(ahpwire.SessionState{Lifecycle: ahpwire.LifecycleCreating}, a)
	if n.Lifecycle != "creationFailed" || n.CreationError == nil || n.CreationError.Message != "boom" {
		t.Fatalf("got %s", mustJSON(t, n))
	}
}

// TestSessionChatUpdatedEmptyList: session/chatUpdated with an explicit
// empty backgroundWork (or workingDirectories) list clears the entry's
// list; an absent member leaves it.
func TestSessionChatUpdatedEmptyList(t *testing.T) {
	chat := ahpwire.ChatSummary{Resource: "ahp-chat:/c", Title: "c",
		WorkingDirectories: []string{"file:///w"},
		BackgroundWork:     []ahpwire.BackgroundWork{{Kind: "shell", ID: "b", Label: "l", StartedAt: "2026-01-01T00:00:00.000Z"}}}
	s := ahpwire.SessionState{Chats: []ahpwire.ChatSummary{chat}}
	acts := decodeActions(t,
		`{"type":"session/chatUpdated","chat":"ahp-chat:/c","changes":{"title":"t2"}}`,
		`{"type":"session/chatUpdated","chat":"ahp-chat:/c","changes":{"backgroundWork":[]}}`,
		`{"type":"session/chatUpdated","chat":"ahp-chat:/c","changes":{"workingDirectories":[]}}`)
	n := ReduceSession(s, acts[0])
	if n.Chats[0].Title != "t2" || len(n.Chats[0].BackgroundWork) != 1 || len(n.Chats[0].WorkingDirectories) != 1 {
		t.Fatalf("absent members changed: %s", mustJSON(t, n.Chats[0]))
	}
	n = ReduceSession(n, acts[1])
	if len(n.Chats[0].BackgroundWork) != 0 || len(n.Chats[0].WorkingDirectories) != 1 {
		t.Fatalf("empty backgroundWork did not clear: %s", mustJSON(t, n.Chats[0]))
	}
	n = ReduceSession(n, acts[2])
	if len(n.Chats[0].WorkingDirectories) != 0 {
		t.Fatalf("empty workingDirectories did not clear: %s", mustJSON(t, n.Chats[0]))
	}
	if len(s.Chats[0].BackgroundWork) != 1 {
		t.Error("input state mutated")
	}
}

// TestSessionArtifactRules (1.1): session/artifactSet upserts by id and
// keeps the artifact verbatim (unknown kinds and members survive);
// session/artifactRemoved removes by id (unknown id: no-op).
func TestSessionArtifactRules(t *testing.T) {
	acts := decodeActions(t,
		`{"type":"session/artifactSet","artifact":{"id":"a1","kind":"pullRequest","title":"PR #7","uri":"https://x/pr/7","relations":[{"kind":"produced"}]}}`,
		`{"type":"session/artifactSet","artifact":{"id":"a2","kind":"hologram","label":"Future kind","resource":"ahp-resource:/h","depth":3}}`,
		`{"type":"session/artifactSet","artifact":{"id":"a1","kind":"pullRequest","title":"PR #7 (merged)","uri":"https://x/pr/7"}}`,
		`{"type":"session/artifactRemoved","id":"nope"}`,
		`{"type":"session/artifactRemoved","id":"a1"}`)
	var s ahpwire.SessionState
	states := []ahpwire.SessionState{}
	for _, a := range acts {
		s = ReduceSession(s, a)
		states = append(states, s)
	}
	if got := states[2].Artifacts; len(got) != 2 || got[0].Title != "PR #7 (merged)" || got[1].Kind != "hologram" || got[1].Title != "Future kind" || got[1].URI != "ahp-resource:/h" {
		t.Fatalf("after sets: %s", mustJSON(t, states[2].Artifacts))
	}
	if string(mustJSON(t, states[2].Artifacts[1])) != `{"id":"a2","kind":"hologram","label":"Future kind","resource":"ahp-resource:/h","depth":3}` {
		t.Errorf("unknown kind not kept verbatim: %s", mustJSON(t, states[2].Artifacts[1]))
	}
	if mustJSON(t, states[3]) != mustJSON(t, states[2]) {
		t.Error("removing an unknown id changed the state")
	}
	if len(s.Artifacts) != 1 || s.Artifacts[0].ID != "a2" {
		t.Fatalf("after remove: %s", mustJSON(t, s.Artifacts))
	}
	if len(states[0].Artifacts) != 1 || states[0].Artifacts[0].Title != "PR #7" {
		t.Error("an earlier state was mutated")
	}
}
