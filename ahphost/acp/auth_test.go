package acp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ahptui/ahptui/ahpwire"
)

// authRequired returns the resources of the auth/required notifications k saw.
func (k *client2) authRequired() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []string
	for _, n := range k.notes {
		if n.Method != ahpwire.MethodAuthRequired {
			continue
		}
		var p ahpwire.AuthRequiredParams
		if json.Unmarshal(n.Params, &p) == nil {
			out = append(out, p.Resource.Resource)
		}
	}
	return out
}

// protected returns the fake agent's protectedResources in the root state.
func (e *env) protected(k *client2) []ahpwire.ProtectedResourceMetadata {
	e.t.Helper()
	snap, err := k.c.Subscribe(e.ctx, ahpwire.RootURI, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	st, err := ahpwire.DecodeRootState(snap.State)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, a := range st.Agents {
		if a.Provider == "fake" {
			return a.ProtectedResources
		}
	}
	return nil
}

// rpcCode returns the JSON-RPC error code of err (0 if none).
func rpcCode(err error) int {
	var re *ahpwire.RPCError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

const (
	loginRes = "acp-auth:/fake/fake-login"
	keyRes   = "acp-auth:/fake/fake-key"
)

// An agent that needs a login shows AHP's sign-in flow with its methods:
// protected resources, auth/required, authenticate → ACP authenticate,
// and the next prompt answers. The token never reaches the log.
func TestAuthFlowAgentMethod(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_AUTH=1"}})
	if got := e.protected(e.c); len(got) != 0 {
		t.Fatalf("resources before the agent asked: %+v", got)
	}
	_, chat := e.newSession(e.c, "auth")
	msg := errText(e.run(e.c, chat, "t1", "text"))
	if !strings.Contains(msg, "not logged in to Fake") || !strings.Contains(msg, "Fake login") || !strings.Contains(msg, "send your message again") ||
		!strings.Contains(msg, "or set FAKEACP_API_KEY where the host runs") {
		t.Fatalf("turn error: %q", msg)
	}
	res := e.protected(e.c)
	if len(res) != 2 || res[0].Resource != loginRes || res[1].Resource != keyRes ||
		res[0].ResourceName != "Fake login (Fake agent)" || !strings.Contains(res[0].ResourceDocumentation, "fake browser flow") {
		t.Fatalf("protected resources: %+v", res)
	}
	if !strings.Contains(res[1].ResourceDocumentation, "FAKEACP_API_KEY") {
		t.Fatalf("env_var resource documentation: %q", res[1].ResourceDocumentation)
	}
	e.eventually("auth/required for both methods", func() bool { return len(e.c.authRequired()) >= 2 })
	if got := e.c.authRequired(); got[0] != loginRes || got[1] != keyRes {
		t.Fatalf("auth/required: %v", got)
	}

	// A resource nobody declared is refused as invalid.
	if err := e.c.c.Authenticate(e.ctx, "acp-auth:/fake/nope", "x"); rpcCode(err) != ahpwire.CodeInvalidParams {
		t.Fatalf("unknown resource: %v", err)
	}
	// A method the agent refuses answers AuthRequired with the resource.
	err := e.c.c.Authenticate(e.ctx, keyRes, "")
	var re *ahpwire.RPCError
	if !errors.As(err, &re) || re.Code != ahpwire.CodeAuthRequired || !strings.Contains(re.Message, "FAKEACP_API_KEY is not set") {
		t.Fatalf("refused sign-in: %v", err)
	}
	var data ahpwire.AuthRequiredData
	if json.Unmarshal(re.Data, &data) != nil || len(data.Resources) != 1 || data.Resources[0].Resource != keyRes {
		t.Fatalf("refused sign-in data: %s", re.Data)
	}

	const token = "tok-agent-login-5e3c"
	if err := e.c.c.Authenticate(e.ctx, loginRes, token); err != nil {
		t.Fatalf("authenticate: %v", err)
	}
	if got := markdown(e.run(e.c, chat, "t2", "whoami")); !strings.Contains(got, "Signed in with fake-login.") {
		t.Fatalf("after sign-in: %q (error %q)", got, errText(e.finished(e.c, chat, "t2")))
	}
	if strings.Contains(e.logs.String(), token) {
		t.Fatal("the token reached the log")
	}
	// An empty token signs out: the agent offers ACP's logout, the host
	// calls it, and the agent is signed out.
	if err := e.c.c.Authenticate(e.ctx, loginRes, ""); err != nil {
		t.Fatalf("sign-out: %v", err)
	}
	if got := markdown(e.run(e.c, chat, "t3", "whoami")); !strings.Contains(got, "Not signed in.") {
		t.Fatalf("after sign-out: %q (error %q)", got, errText(e.finished(e.c, chat, "t3")))
	}
}

// An env_var method: the token becomes the variable's value on a restart;
// the agent's stderr echoing it is masked in the log.
func TestAuthFlowEnvVar(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_AUTH=prompt"}})
	_, chat := e.newSession(e.c, "key")
	if msg := errText(e.run(e.c, chat, "t1", "text")); !strings.Contains(msg, "not logged in to Fake") {
		t.Fatalf("turn error: %q", msg)
	}
	e.eventually("auth/required", func() bool { return len(e.c.authRequired()) >= 2 })
	const key = "sk-fake-key-9d1f7a"
	if err := e.c.c.Authenticate(e.ctx, keyRes, key); err != nil {
		t.Fatalf("authenticate: %v", err)
	}
	turn := e.run(e.c, chat, "t2", "whoami")
	if got := markdown(turn); !strings.Contains(got, "Signed in with fake-key.") {
		t.Fatalf("after sign-in: %q (error %q)", got, errText(turn))
	}
	e.eventually("the agent's stderr line in the log", func() bool { return strings.Contains(e.logs.String(), "fakeacp: using key") })
	if logs := e.logs.String(); strings.Contains(logs, key) || !strings.Contains(logs, "using key ***") {
		t.Fatalf("the key was not masked:\n%s", logs)
	}
}

// An agent without credentials and without auth methods fails with its
// own words (no resources, no prompt).
func TestAuthNoMethods(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_AUTH=none"}})
	_, chat := e.newSession(e.c, "none")
	if msg := errText(e.run(e.c, chat, "t1", "text")); !strings.Contains(msg, "no credentials found: set FAKE_TOKEN or run `fake login` first") {
		t.Fatalf("turn error: %q", msg)
	}
	if got := e.protected(e.c); len(got) != 0 {
		t.Fatalf("resources: %+v", got)
	}
	if got := e.c.authRequired(); len(got) != 0 {
		t.Fatalf("auth/required: %v", got)
	}
}

// A sign-in with a NUL byte is refused before it is kept (it would fail
// every later start); a sign-in the agent cannot start with can be signed
// out of though no agent runs, and a good one works after both.
func TestBadSignInsDoNotDisableTheAgent(t *testing.T) {
	e := newEnv(t, opts{env: []string{"FAKEACP_AUTH=prompt"}})
	_, chat := e.newSession(e.c, "bad")
	e.run(e.c, chat, "t1", "text")
	e.eventually("auth/required", func() bool { return len(e.c.authRequired()) >= 2 })
	if err := e.c.c.Authenticate(e.ctx, keyRes, "sk-\x00bad"); err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("a NUL sign-in: %v", err)
	}
	if err := e.c.c.Authenticate(e.ctx, keyRes, "crash-key"); err == nil {
		t.Fatal("a sign-in the agent cannot start with was accepted")
	}
	if err := e.c.c.Authenticate(e.ctx, keyRes, ""); err != nil {
		t.Fatalf("sign-out without a live agent: %v", err)
	}
	if err := e.c.c.Authenticate(e.ctx, keyRes, "sk-good-key-1"); err != nil {
		t.Fatalf("a good sign-in after the bad ones: %v", err)
	}
	if got := markdown(e.run(e.c, chat, "t2", "whoami")); !strings.Contains(got, "Signed in with fake-key.") {
		t.Fatalf("after sign-in: %q", got)
	}
}
