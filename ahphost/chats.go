package ahphost

import (
	"github.com/ahptui/ahptui/ahpwire"
)

// chatEntry is one chat's state and its running agent turn.
type chatEntry struct {
	uri     string
	session string
	state   ahpwire.ChatState
	run     *turnRun
	// refTurns is how many finished turns refLargeParts has seen.
	refTurns int
	// lastLarge is 1 + the index of the newest finished turn holding a
	// large part (0: none); snapshots start after it (bigparts.go).
	lastLarge int
	// spill is the streaming part whose text continues as pages
	// (bigstream.go); nil when none.
	spill *spilledPart
	// usedAt is store.sweeps when the chat was last used (lazychats.go).
	usedAt int64
	// delta is the agent's text gathered to be sent as one delta
	// (coalesce.go); nil when none.
	delta *pendingDelta
	// resumed is the resumed turn's moved start (turnclock.go).
	resumed resumedTurn
}

// addChat creates a chat in a session and announces it with
// session/chatAdded. A fork source copies the source chat's turns up to
// and including source.TurnID.
func (s *store) addChat(se *sessionEntry, uri string, src *ahpwire.CreateChatSource) *chatEntry {
	ce := &chatEntry{uri: uri, session: se.uri, usedAt: s.sweeps}
	ce.state = ahpwire.ChatState{
		Resource:   uri,
		Title:      "Chat",
		Status:     ahpwire.StatusIdle,
		ModifiedAt: s.now(),
	}
	if src != nil {
		ce.state.Origin = &ahpwire.ChatOrigin{Kind: src.Kind, Chat: src.Chat, TurnID: src.TurnID, Selection: src.Selection}
		if from := s.chat(src.Chat); from != nil && src.Kind == ahpwire.ChatOriginFork {
			for _, t := range from.state.Turns {
				ce.state.Turns = append(ce.state.Turns, t)
				if t.ID == src.TurnID {
					break
				}
			}
		}
	}
	s.chats[uri] = ce
	s.persistChanged(uri)
	s.applySession(se, &ahpwire.SessionChatAdded{Summary: ce.state.Summary()}, nil)
	return ce
}

// removeChat cancels a chat's turn and forgets it (no session action).
func (s *store) removeChat(uri string) {
	ce := s.chats[uri]
	if ce == nil {
		if _, stored := s.cold[uri]; stored {
			delete(s.cold, uri)
			delete(s.lastRun, uri)
			s.persistDeleted(uri)
			s.persist.batch.DeleteResources(largePartURIPrefix + uri[len(ahpwire.ChatScheme)+1:] + "/")
		}
		return
	}
	if ce.run != nil {
		ce.run.cancel()
		ce.run = nil
	}
	if p := ce.delta; p != nil { // gathered text of a chat that goes (coalesce.go)
		p.timer.Stop()
		ce.delta = nil
	}
	delete(s.chats, uri)
	s.dropChannel(uri)
	s.persistDeleted(uri)
	if p := s.persist; p != nil { // its pages (bigparts.go)
		p.batch.DeleteResources(largePartURIPrefix + uri[len(ahpwire.ChatScheme)+1:] + "/")
	}
	s.childSettled(ce)
}

// createChat adds a chat at the client-chosen URI to a session.
func (c *conn) createChat(p *ahpwire.CreateChatParams) (any, func(), *rpcError) {
	s := c.h.st
	se, e := s.sessionOf(p.Channel)
	switch {
	case e != nil:
		return nil, nil, e
	case se.state.Lifecycle != ahpwire.LifecycleReady:
		return nil, nil, errInvalidParams("session is not ready")
	case kindOf(p.Chat) != chanChat || len(p.Chat) > 512:
		return nil, nil, errInvalidParams("chat must be an ahp-chat:/<id> URI")
	case s.chatExists(p.Chat):
		return nil, nil, &rpcError{code: ahpwire.CodeAlreadyExists, msg: "chat already exists"}
	case p.Source != nil && !s.chatExists(p.Source.Chat):
		return nil, nil, errInvalidParams("source chat not found")
	}
	ce := s.addChat(se, p.Chat, p.Source)
	s.publishSummary(se)
	var after func()
	if p.InitialMessage != nil {
		msg := *p.InitialMessage
		msg.Origin = ahpwire.MessageOrigin{Kind: ahpwire.MessageKindUser}
		after = func() {
			s.startServerTurn(ce, msg, "")
		}
	}
	return nil, after, nil
}

// disposeChat removes a chat from its session.
func (c *conn) disposeChat(p *ahpwire.ChannelParams) (any, func(), *rpcError) {
	s := c.h.st
	ce, e := s.chatOf(p.Channel)
	if e != nil {
		return nil, nil, e
	}
	s.removeChat(p.Channel)
	if se := s.sessions[ce.session]; se != nil {
		s.applySession(se, &ahpwire.SessionChatRemoved{Chat: p.Channel}, nil)
		s.publishSummary(se)
	}
	return nil, nil, nil
}

// syncChat publishes a chat's changed catalog fields on its session
// (session/chatUpdated) and the session's summary on the root channel.
func (s *store) syncChat(ce *chatEntry) {
	se := s.sessions[ce.session]
	if se == nil {
		return
	}
	cur := ce.state.Summary()
	var old *ahpwire.ChatSummary
	for i := range se.state.Chats {
		if se.state.Chats[i].Resource == ce.uri {
			old = &se.state.Chats[i]
		}
	}
	if old == nil {
		return
	}
	var ch ahpwire.PartialChatSummary
	changed := false
	if cur.Status != old.Status {
		ch.Status, changed = &cur.Status, true
	}
	if cur.ModifiedAt != old.ModifiedAt {
		ch.ModifiedAt, changed = &cur.ModifiedAt, true
	}
	if cur.Activity != old.Activity {
		ch.Activity, changed = &cur.Activity, true
	}
	if changed {
		s.applySession(se, &ahpwire.SessionChatUpdated{Chat: ce.uri, Changes: ch}, nil)
	}
	s.syncInputNeeded(se, ce)
	s.publishSummary(se)
}
