// Agent-owned sign-in: an agent that needs a login (an ACP agent answering
// "auth required") declares protected resources at run time, and a client's
// `authenticate` for one of them is handed to that agent (ACP
// authenticate), outside the host lock.

package ahphost

import (
	"slices"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

var _ agent.AuthHooks = sessionHooks{}

// RequireAuth lists res as the session provider's protected resources
// (root/agentsChanged when they changed), forgets the sign-ins to them and
// sends auth/required for each to the root subscribers.
func (sh sessionHooks) RequireAuth(res []ahpwire.ProtectedResourceMetadata) {
	if len(res) == 0 {
		return
	}
	h := sh.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	s := h.st
	se := s.sessions[sh.session]
	if se == nil {
		return
	}
	agents := slices.Clone(s.root.Agents)
	changed := false
	for i := range agents {
		if agents[i].Provider == se.state.Provider && !slices.EqualFunc(agents[i].ProtectedResources, res, sameResource) {
			agents[i].ProtectedResources = slices.Clone(res)
			changed = true
		}
	}
	if changed {
		a := &ahpwire.RootAgentsChanged{Agents: agents}
		s.root = reduceRoot(s.root, a)
		s.emit(ahpwire.RootURI, a, nil, "")
	}
	for _, r := range res {
		for _, m := range s.extra.signedIn {
			delete(m, r.Resource)
		}
		s.notifyAuthRequired(r)
	}
}

// sameResource compares the fields a sign-in prompt shows.
func sameResource(a, b ahpwire.ProtectedResourceMetadata) bool {
	return a.Resource == b.Resource && a.ResourceName == b.ResourceName &&
		a.ResourceDocumentation == b.ResourceDocumentation
}

// agentAuthenticator returns the agent that signs in to resource itself,
// if any. h.mu is held.
func (s *store) agentAuthenticator(resource string) agent.Authenticator {
	for _, a := range s.root.Agents {
		if !slices.ContainsFunc(a.ProtectedResources, func(r ahpwire.ProtectedResourceMetadata) bool { return r.Resource == resource }) {
			continue
		}
		ag := s.h.agent
		if m, ok := ag.(*muxAgent); ok {
			ag = m.pick(a.Provider)
		}
		if au, ok := ag.(agent.Authenticator); ok {
			return au
		}
	}
	return nil
}

// rpcFailure carries an rpcError out of a deferred build: the writer
// answers the request with it.
type rpcFailure struct{ e *rpcError }

func (f rpcFailure) Error() string { return f.e.msg }

// agentAuthenticate answers `authenticate` for a resource an agent signs
// in to: the agent's Authenticate runs on the connection's writer (the
// answer keeps its place in the queue), bounded by the connection's life;
// on success the client counts as signed in and waiting tool calls resume.
// The token is handed over once and never logged. h.mu is held.
func (c *conn) agentAuthenticate(au agent.Authenticator, resource, token string) *deferred {
	h := c.h
	ctx := c.ctx
	return &deferred{light: true, build: func(int64) (any, error) {
		if err := au.Authenticate(ctx, resource, token); err != nil {
			h.log.Info("agent sign-in refused", "conn", c.id, "resource", resource)
			res, _ := h.resourceMeta(resource)
			return nil, rpcFailure{&rpcError{code: ahpwire.CodeAuthRequired, msg: truncate(err.Error(), 1024),
				data: ahpwire.AuthRequiredData{Resources: res}}}
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		s := h.st
		if token == "" {
			delete(s.extra.signedIn[c.clientID], resource)
			h.log.Info("signed out of an agent's protected resource", "conn", c.id, "resource", resource)
			return struct{}{}, nil
		}
		if s.extra.signedIn == nil {
			s.extra.signedIn = map[string]map[string]bool{}
		}
		if s.extra.signedIn[c.clientID] == nil {
			s.extra.signedIn[c.clientID] = map[string]bool{}
		}
		s.extra.signedIn[c.clientID][resource] = true
		h.log.Info("signed in to an agent's protected resource", "conn", c.id, "resource", resource)
		s.resolveAuth(resource)
		return struct{}{}, nil
	}}
}

// resourceMeta returns the resource's metadata as a one-element list.
func (h *Host) resourceMeta(resource string) ([]ahpwire.ProtectedResourceMetadata, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r, ok := h.st.protectedResource(resource)
	if !ok {
		return []ahpwire.ProtectedResourceMetadata{}, false
	}
	return []ahpwire.ProtectedResourceMetadata{r}, true
}
