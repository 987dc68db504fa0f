// `authenticate`: bearer tokens for the protected resources agents declare
// (RFC 9728 metadata in AgentInfo.protectedResources). The host keeps only
// which client signed in to which resource, never the token, and resumes
// tool calls waiting in auth-required with chat/toolCallAuthResolved.

package ahphost

import (
	"encoding/json"

	"github.com/ahptui/ahptui/ahpwire"
)

// extraState is host state of the composer, subagent and auth features.
type extraState struct {
	// signedIn maps clientId → resource → true.
	signedIn map[string]map[string]bool
	// childDone maps a subagent chat to the channel closed when its turn ends.
	childDone map[string]chan struct{}
}

// protectedResource returns the metadata of a resource some agent declares.
func (s *store) protectedResource(uri string) (ahpwire.ProtectedResourceMetadata, bool) {
	for _, a := range s.root.Agents {
		for _, r := range a.ProtectedResources {
			if r.Resource == uri {
				return r, true
			}
		}
	}
	return ahpwire.ProtectedResourceMetadata{}, false
}

// authenticate records a token for a protected resource (an empty token
// signs out) and resumes the tool calls waiting for it.
func (c *conn) authenticate(p *ahpwire.AuthenticateParams) (any, func(), *rpcError) {
	s := c.h.st
	if _, ok := s.protectedResource(p.Resource); !ok {
		return nil, nil, errInvalidParams("unknown protected resource: " + truncate(p.Resource, 128))
	}
	if au := s.agentAuthenticator(p.Resource); au != nil {
		return c.agentAuthenticate(au, p.Resource, p.Token), nil, nil
	}
	if s.extra.signedIn == nil {
		s.extra.signedIn = map[string]map[string]bool{}
	}
	if p.Token == "" {
		delete(s.extra.signedIn[c.clientID], p.Resource)
		c.h.log.Info("signed out of a protected resource", "conn", c.id, "resource", p.Resource)
		return struct{}{}, nil, nil
	}
	if s.extra.signedIn[c.clientID] == nil {
		s.extra.signedIn[c.clientID] = map[string]bool{}
	}
	s.extra.signedIn[c.clientID][p.Resource] = true
	c.h.log.Info("signed in to a protected resource", "conn", c.id, "resource", p.Resource)
	return struct{}{}, func() { s.resolveAuth(p.Resource) }, nil
}

// requireSignIn refuses a new session with AuthRequired while the client
// has not signed in to the provider's protected resources (only with
// Options.RequireSignIn).
func (s *store) requireSignIn(clientID, provider string) *rpcError {
	if !s.h.opts.RequireSignIn {
		return nil
	}
	var missing []ahpwire.ProtectedResourceMetadata
	for _, a := range s.root.Agents {
		if a.Provider != provider {
			continue
		}
		for _, r := range a.ProtectedResources {
			if !s.extra.signedIn[clientID][r.Resource] {
				missing = append(missing, r)
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return &rpcError{code: ahpwire.CodeAuthRequired, msg: "authentication required for " + firstName(missing[0]),
		data: ahpwire.AuthRequiredData{Resources: missing}}
}

// firstName is a resource's display name.
func firstName(r ahpwire.ProtectedResourceMetadata) string {
	if r.ResourceName != "" {
		return r.ResourceName
	}
	return r.Resource
}

// resolveAuth resumes every active tool call waiting for resource.
func (s *store) resolveAuth(resource string) {
	for _, ce := range s.chats {
		at := ce.state.ActiveTurn
		if at == nil {
			continue
		}
		for _, part := range at.ResponseParts.All() {
			tc := part.ToolCall
			if part.Kind != ahpwire.PartToolCall || tc == nil || tc.Status != ahpwire.ToolAuthRequired ||
				tc.Auth == nil || tc.Auth.Resource.Resource != resource {
				continue
			}
			a := &ahpwire.ChatToolCallAuthResolved{TurnID: at.ID, ToolCallID: tc.ToolCallID}
			s.applyServerChat(ce, a)
			s.forward(ce, a)
		}
	}
}

// forward hands an action to the chat's running agent, if any.
func (s *store) forward(ce *chatEntry, a ahpwire.Action) {
	if ce.run == nil {
		return
	}
	select {
	case ce.run.client <- a:
	default:
		s.h.log.Warn("agent not reading client actions; dropped", "chat", ce.uri, "type", a.ActionType())
	}
}

// afterAgentAction runs after an agent's action was applied: an
// auth-required tool call sends auth/required to the root subscribers not
// signed in to its resource, and a finished turn marks the session unread.
func (s *store) afterAgentAction(ce *chatEntry, a ahpwire.Action) {
	switch a := a.(type) {
	case *ahpwire.ChatToolCallAuthRequired:
		s.notifyAuthRequired(a.Auth.Resource)
	case *ahpwire.ChatTurnComplete, *ahpwire.ChatError:
		s.markUnread(ce)
	}
}

// notifyAuthRequired sends auth/required to root subscribers without a
// token for the resource.
func (s *store) notifyAuthRequired(r ahpwire.ProtectedResourceMetadata) {
	n, err := ahpwire.NewNotification(ahpwire.MethodAuthRequired, ahpwire.AuthRequiredParams{
		Channel: ahpwire.RootURI, Resource: r, Reason: "required"})
	if err != nil {
		return
	}
	b, err := json.Marshal(n)
	if err != nil {
		return
	}
	m := outMsg{data: b, kind: kindNotification, method: ahpwire.MethodAuthRequired}
	for c := range s.subs[ahpwire.RootURI] {
		if !s.extra.signedIn[c.clientID][r.Resource] {
			c.enqueue(m)
		}
	}
}

// markUnread clears the session's IsRead flag when one of its chats
// finished a turn, so pickers show it as unread.
func (s *store) markUnread(ce *chatEntry) {
	se := s.sessions[ce.session]
	if se == nil || !se.state.Status.Has(ahpwire.StatusIsRead) {
		return
	}
	s.applySession(se, &ahpwire.SessionIsReadChanged{IsRead: false}, nil)
	s.publishSummary(se)
}
