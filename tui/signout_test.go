package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// authFake is the test backend with authenticate: it records the calls
// and refuses the resources in refuse.
type authFake struct {
	*fakeBackend
	calls  []string
	refuse map[string]string
}

func (a *authFake) Authenticate(_ context.Context, resource, token string) error {
	a.calls = append(a.calls, resource+"="+token)
	if msg := a.refuse[resource]; msg != "" {
		return errors.New(msg)
	}
	return nil
}

// withResources makes the session's agent declare two sign-ins.
func withResources(m Model) Model {
	m.picker.Agents = []ahpwire.AgentInfo{{Provider: "demo", DisplayName: "Demo agent", ProtectedResources: []ahpwire.ProtectedResourceMetadata{
		{Resource: "acp-auth:/demo/login", ResourceName: "Demo login"},
		{Resource: "acp-auth:/demo/key", ResourceName: "Demo API key"},
	}}}
	return m
}

// /logout sends an empty token (AHP: revoke) for every resource the open
// session's agent declares, goes on past one the host refuses, and says
// which it signed out of and why the other failed; nothing reaches the
// agent as a prompt.
func TestSlashLogoutRevokesTheAgentsSignIns(t *testing.T) {
	m, fb := slashChat(t)
	ab := &authFake{fakeBackend: fb, refuse: map[string]string{"acp-auth:/demo/login": "demo keeps its own sign-in"}}
	m.c.Backend = ab
	m.c.NoticeTTL = time.Hour // the test model's notices expire at once
	m = withResources(m)
	m = typeText(t, m, "/logout ")
	m = send(t, m, keyPress("enter"))
	if got := strings.Join(ab.calls, ","); got != "acp-auth:/demo/login=,acp-auth:/demo/key=" {
		t.Fatalf("authenticate calls %s", got)
	}
	if len(fb.dispatched) != 0 {
		t.Fatalf("/logout went to the agent: %#v", fb.dispatched[0].action)
	}
	v := viewText(m)
	for _, want := range []string{"signed out of Demo API key", "Demo login: demo keeps its own sign-in"} {
		if !strings.Contains(v, want) {
			t.Fatalf("notice lacks %q:\n%s", want, v)
		}
	}
}

// /login opens the token prompt for the agent's sign-ins; with none
// declared both commands say so instead.
func TestSlashLoginOpensTheSignInPrompt(t *testing.T) {
	m, fb := slashChat(t)
	m.c.Backend = &authFake{fakeBackend: fb}
	m.c.NoticeTTL = time.Hour
	m = typeText(t, m, "/logout ")
	m = send(t, m, keyPress("enter"))
	if !strings.Contains(viewText(m), "declares no sign-in") {
		t.Fatalf("/logout without resources:\n%s", viewText(m))
	}
	m = withResources(m)
	m = typeText(t, m, "/login ")
	m = send(t, m, keyPress("enter"))
	if _, ok := m.overlays[len(m.overlays)-1].(*dialog.SignIn); !ok {
		t.Fatalf("/login opened no sign-in prompt:\n%s", viewText(m))
	}
	if v := viewText(m); !strings.Contains(v, "Demo login") {
		t.Fatalf("sign-in prompt:\n%s", v)
	}
}
