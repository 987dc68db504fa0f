package tui

import (
	"cmp"
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
)

// "/login" and "/logout" in a chat, as Claude Code's: they act on the
// open session's agent through its protected resources (AHP's
// authenticate; an empty token revokes). The host signs the agent in or
// out: an API-key sign-in is forgotten and the agent restarted without
// it; an agent's own login is ended with ACP's logout when the agent
// offers it, and the host says so when it cannot.

// signedOutMsg is the host's answer to a sign-out.
type signedOutMsg struct {
	names []string
	err   error
}

// agentResources returns the open session's agent and the resources it
// declares.
func (m *Model) agentResources() (string, []ahpwire.ProtectedResourceMetadata) {
	ss := m.sessionState()
	if ss == nil {
		return "", nil
	}
	for _, a := range m.picker.Agents {
		if a.Provider == ss.Provider {
			return cmp.Or(a.DisplayName, a.Provider), a.ProtectedResources
		}
	}
	return ss.Provider, nil
}

// login opens the sign-in prompt for the agent's first resource (the
// prompt lists the others as it learns them).
func (m *Model) login() tea.Cmd {
	agent, res := m.agentResources()
	if len(res) == 0 {
		return m.setNotice(noSignIn(agent), false)
	}
	sp := dialog.NewSignIn(m.c.KM.SignIn, res[0], &m.c.Styles)
	for _, r := range res[1:] {
		sp.Add(r)
	}
	m.overlays = append(m.overlays, sp)
	return nil
}

// logout revokes every resource of the agent.
func (m *Model) logout() tea.Cmd {
	agent, res := m.agentResources()
	if len(res) == 0 {
		return m.setNotice(noSignIn(agent), false)
	}
	ab, ok := m.c.Backend.(AuthBackend)
	if !ok {
		return m.setNotice("sign-out failed: "+errNoSignIn.Error(), true)
	}
	ctx := m.c.Ctx
	return tea.Batch(m.setNotice("signing out of "+agent+"…", false), func() tea.Msg {
		return signOut(ctx, ab, res)
	})
}

// signOut sends an empty token for each resource (off the Update loop);
// one the host cannot sign out of does not stop the others.
func signOut(ctx context.Context, ab AuthBackend, res []ahpwire.ProtectedResourceMetadata) tea.Msg {
	var out signedOutMsg
	var errs []string
	for _, r := range res {
		if err := ab.Authenticate(ctx, r.Resource, ""); err != nil {
			errs = append(errs, dialog.ResourceName(r)+": "+app.ErrText(err))
			continue
		}
		out.names = append(out.names, dialog.ResourceName(r))
	}
	if len(errs) > 0 {
		out.err = errors.New(strings.Join(errs, "; "))
	}
	return out
}

// onSignedOut shows the sign-out's result.
func (m *Model) onSignedOut(msg signedOutMsg) tea.Cmd {
	if msg.err != nil {
		done := ""
		if len(msg.names) > 0 {
			done = "signed out of " + strings.Join(msg.names, ", ") + "; "
		}
		return m.setNotice(done+"sign-out failed: "+msg.err.Error(), true)
	}
	return m.setNotice("signed out of "+strings.Join(msg.names, ", ")+" — /login signs in again", false)
}

// noSignIn says the agent declares nothing to sign in to.
func noSignIn(agent string) string {
	if agent == "" {
		return "open a chat first: /login and /logout act on its agent"
	}
	return agent + " declares no sign-in to the host (it keeps its own, if any)"
}
