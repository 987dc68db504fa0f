package tui

import (
	"context"
	"encoding/json"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Sign-in, as the root model drives it: the prompt (dialog/signin.go) opens from
// a tool call's notice (dialog.AuthSignInMsg), from an auth/required notification
// (onAuthRequired), or when createSession answers AuthRequired; a
// successful sign-in retries that createSession.

// onSignIn handles the sign-in prompt's messages.
func (m *Model) onSignIn(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case dialog.AuthSignInMsg:
		res := msg.Resource
		if known := m.resourceMeta(res.Resource); known.ResourceName != "" || len(known.AuthorizationServers) > 0 {
			res = known // the agent's declaration is the fuller one
		}
		m.overlays = append(m.overlays, dialog.NewSignIn(m.c.KM.SignIn, res, &m.c.Styles))
		return nil
	case dialog.AuthenticateMsg:
		return tea.Batch(authenticateCmd(m.c.Ctx, m.c.Backend, msg), m.setNotice("signing in to "+msg.Name+"…", false))
	case authenticatedMsg:
		if msg.err != nil {
			m.retryCreate = false
			return m.setNotice("sign-in to "+msg.name+" failed: "+app.ErrText(msg.err), true)
		}
		cmd := m.setNotice("signed in to "+msg.name, false)
		if m.retryCreate && m.lastCreate != nil {
			// The host refused createSession until signed in: retry it.
			m.retryCreate = false
			r := m.lastCreate
			cmd = tea.Batch(cmd, m.createWith(r.provider, r.dir, r.config))
		}
		return cmd
	}
	return nil
}

// signInToCreate opens the sign-in prompt for the first resource of a
// createSession that answered AuthRequired.
func (m *Model) signInToCreate(res []ahpwire.ProtectedResourceMetadata) tea.Cmd {
	m.open, m.picker.Status = nil, ""
	meta := ahpwire.ProtectedResourceMetadata{}
	if len(res) > 0 {
		meta = res[0]
	}
	if known := m.resourceMeta(meta.Resource); known.ResourceName != "" {
		meta = known
	}
	m.retryCreate = true
	m.overlays = append(m.overlays, dialog.NewSignIn(m.c.KM.SignIn, meta, &m.c.Styles))
	return m.setNotice("the host wants you to sign in to "+dialog.ResourceName(meta)+" first", false)
}

// authRequiredOf returns the resources of an AuthRequired (-32007) error
// (data {resources} or, in older hosts, a bare array); ok is false for
// other errors.
func authRequiredOf(err error) (res []ahpwire.ProtectedResourceMetadata, ok bool) {
	var re *ahpwire.RPCError
	if !errors.As(err, &re) || re.Code != ahpwire.CodeAuthRequired {
		return nil, false
	}
	var d ahpwire.AuthRequiredData
	if json.Unmarshal(re.Data, &d) != nil || len(d.Resources) == 0 {
		_ = json.Unmarshal(re.Data, &res)
		return res, true
	}
	return d.Resources, true
}

// resourceMeta finds a protected resource's metadata among the agents.
func (m *Model) resourceMeta(resource string) ahpwire.ProtectedResourceMetadata {
	for _, a := range m.picker.Agents {
		for _, r := range a.ProtectedResources {
			if r.Resource == resource {
				return r
			}
		}
	}
	return ahpwire.ProtectedResourceMetadata{Resource: resource}
}

// onAuthRequired answers auth/required: the sign-in prompt opens unless a
// prompt is already in front (the tool call's notice offers it too).
func (m *Model) onAuthRequired(raw json.RawMessage) tea.Cmd {
	var p ahpwire.AuthRequiredParams
	if json.Unmarshal(raw, &p) != nil || p.Resource.Resource == "" {
		return nil
	}
	name := dialog.ResourceName(p.Resource)
	if n := len(m.overlays); n > 0 {
		if sp, ok := m.overlays[n-1].(*dialog.SignIn); ok {
			sp.Add(p.Resource) // another way to sign in to the same agent, or another resource
			return nil
		}
		return m.setNotice("sign-in needed for "+name+" — "+m.c.KM.Auth.SignIn.Help().Key+" in the prompt signs in", false)
	}
	m.overlays = append(m.overlays, dialog.NewSignIn(m.c.KM.SignIn, p.Resource, &m.c.Styles))
	return nil
}

// AuthBackend is the optional part of the Backend that pushes tokens
// (*ahpclient.Client implements it).
type AuthBackend interface {
	Authenticate(ctx context.Context, resource, token string) error
}

// authenticatedMsg is the host's answer to authenticate.
type authenticatedMsg struct {
	name string
	err  error
}

// authenticateCmd sends the token off the Update loop.
func authenticateCmd(ctx context.Context, be app.Backend, m dialog.AuthenticateMsg) tea.Cmd {
	ab, ok := be.(AuthBackend)
	if !ok {
		return uikit.Emit(authenticatedMsg{name: m.Name, err: errNoSignIn})
	}
	return func() tea.Msg {
		return authenticatedMsg{name: m.Name, err: ab.Authenticate(ctx, m.Resource, m.Token)}
	}
}

// errNoSignIn says the connection cannot send tokens.
var errNoSignIn = signInError("this connection cannot send tokens")

type signInError string

func (e signInError) Error() string { return string(e) }
