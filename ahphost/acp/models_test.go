package acp

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// An agent that announces its models the pre-config-options way (the
// "models" of session/new, dropped by the SDK) still offers them as the
// session's "model" property, and choosing one reaches the agent with
// session/set_model.
func TestLegacySessionModels(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_MODELS=1"}})
	_, first := e.newSession(e.c, "models")
	e.run(e.c, first, "t0", "text") // the agent's models learnt (the next session offers them)
	session, chat := e.newSession(e.c, "models2")
	if turn := e.run(e.c, chat, "t1", "model"); markdown(turn) != "Model: fake-small." {
		t.Fatalf("before set_model: %q %q", markdown(turn), errText(turn))
	}
	res, err := e.c.c.ResolveSessionConfig(e.ctx, ahpwire.ResolveSessionConfigParams{Channel: ahpwire.RootURI, Provider: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := res.Schema.Properties["model"]
	if !ok || len(p.Enum) != 2 || p.EnumLabels[1] != "Fake large" || string(res.Values["model"]) != `"fake-small"` {
		t.Fatalf("model property %+v values %s", p, res.Values["model"])
	}
	if _, err := e.c.c.Dispatch(e.ctx, session, &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{"model": json.RawMessage(`"fake-large"`)}}); err != nil {
		t.Fatal(err)
	}
	if turn := e.run(e.c, chat, "t2", "model"); markdown(turn) != "Model: fake-large." {
		t.Fatalf("after set_model: %q %q\n%s", markdown(turn), errText(turn), e.logs)
	}
}

// Disposing a session deletes it from the agent's own store when the agent
// offers session/delete.
func TestDisposeDeletesAgentSession(t *testing.T) {
	agentState := t.TempDir()
	e := newEnv(t, opts{env: []string{"FAKEACP_LOAD=1", "FAKEACP_DELETE=1", "FAKEACP_STATE=" + agentState}})
	session, chat := e.newSession(e.c, "gone")
	e.run(e.c, chat, "t1", "text")
	stored := func() int {
		ents, err := os.ReadDir(agentState)
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	if stored() == 0 {
		t.Fatal("the agent stored nothing")
	}
	if err := e.c.c.DisposeSession(e.ctx, session); err != nil {
		t.Fatal(err)
	}
	e.eventually("the agent's session deleted", func() bool { return stored() == 0 })
}
