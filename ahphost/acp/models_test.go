package acp

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

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

// TestUnlistedCurrentModel: an agent running a model it does not list
// (Codex's adapter: "gpt-5.5" among "gpt-5.5[low]", …) has its sessions
// say that model, listed beside the others; the host refused the whole
// configuration ("the host refused the agent's configuration").
func TestUnlistedCurrentModel(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_MODELS=unlisted"}})
	_, first := e.newSession(e.c, "unlisted")
	e.run(e.c, first, "t0", "text") // the agent's models learnt (the next session offers them)
	session, chat := e.newSession(e.c, "unlisted2")
	if turn := e.run(e.c, chat, "t1", "model"); markdown(turn) != "Model: fake-base." {
		t.Fatalf("model: %q %q", markdown(turn), errText(turn))
	}
	cfg := e.sessionConfig(session)
	if cfg == nil || string(cfg.Values["model"]) != `"fake-base"` || !strings.Contains(string(cfg.Schema), `"fake-base"`) ||
		!strings.Contains(string(cfg.Schema), `"fake-large"`) {
		t.Fatalf("the session's configuration: %+v", cfg)
	}
	if l := e.logs.String(); strings.Contains(l, "refused the agent's configuration") {
		t.Fatalf("the host refused the configuration:\n%s", l)
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

// blockedWriter is the stdin of an agent that stopped reading it: a write
// says it began and waits until released.
type blockedWriter struct{ began, release chan struct{} }

func (w blockedWriter) Write(b []byte) (int, error) {
	close(w.began)
	<-w.release
	return len(b), nil
}

// The agent reader looks at every line the agent sends (peek) while a
// write to the agent is stuck in its stdin: an agent that does not read
// never stops the host from reading its requests (to answer or refuse
// them), as it did when one mutex guarded both (TestReadFloodBoundedQueue
// then hung once the first answer filled the pipe), and the session
// request being written is still noted.
func TestPeekWhileWriteBlocks(t *testing.T) {
	w := blockedWriter{began: make(chan struct{}), release: make(chan struct{})}
	l := newLegacyRPC(w)
	wrote := make(chan error, 1)
	go func() {
		_, err := l.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/"}}` + "\n"))
		wrote <- err
	}()
	<-w.began
	peeked := make(chan struct{})
	go func() {
		defer close(peeked)
		l.peek([]byte(`{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"/a"}}`))
		l.peek([]byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1","models":{"availableModels":[{"modelId":"m","name":"M"}],"currentModelId":"m"}}}`))
	}()
	select {
	case <-peeked:
	case <-time.After(10 * time.Second):
		close(w.release)
		t.Fatal("the agent reader waited for a write the agent does not take")
	}
	if m := l.modelsOf("s1"); m == nil || m.CurrentModelID != "m" {
		t.Fatalf("models of the session request written meanwhile: %+v", m)
	}
	close(w.release)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
}
