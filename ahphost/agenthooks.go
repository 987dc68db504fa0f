// Host-side hooks of the agent contract: session hooks of a turn, stored
// sessions after a restart, dispose and shutdown.

package ahphost

import (
	"bytes"
	"log/slog"
	"strings"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// sessionHooks implements agent.SessionHooks for one turn run.
type sessionHooks struct {
	h       *Host
	run     *turnRun
	session string
}

// maxTitle bounds a title an agent sets (runes).
const maxTitle = 200

// SetTitle renames the session while the run is live.
func (sh sessionHooks) SetTitle(title string) {
	title = strings.TrimSpace(title)
	if r := []rune(title); len(r) > maxTitle {
		title = string(r[:maxTitle-1]) + "…"
	}
	if title == "" {
		return
	}
	sh.h.mu.Lock()
	defer sh.h.mu.Unlock()
	if sh.run.ctx.Err() != nil {
		return
	}
	s := sh.h.st
	se := s.sessions[sh.session]
	if se == nil || se.state.Title == title {
		return
	}
	s.applySession(se, &ahpwire.SessionTitleChanged{Title: title}, nil)
	s.publishSummary(se)
}

var _ agent.ArtifactHooks = sessionHooks{}

// maxArtifacts bounds the artifacts an agent keeps in one session: the
// oldest are dropped beyond it, so an agent cannot grow every snapshot.
const maxArtifacts = 200

// SetArtifact upserts a session artifact (session/artifactSet) while the
// run is live; an artifact without a key, or equal to the one listed, is
// ignored.
func (sh sessionHooks) SetArtifact(a ahpwire.SessionArtifact) {
	if a.ID == "" {
		return
	}
	sh.h.mu.Lock()
	defer sh.h.mu.Unlock()
	se := sh.h.st.sessions[sh.session]
	if sh.run.ctx.Err() != nil || se == nil {
		return
	}
	for _, x := range se.state.Artifacts {
		if x.ID == a.ID && bytes.Equal(x.Raw, a.Raw) && x.Raw != nil {
			return
		}
	}
	if len(se.state.Artifacts) >= maxArtifacts && !hasArtifact(se.state.Artifacts, a.ID) {
		old := se.state.Artifacts[0].ID
		sh.h.st.applySession(se, &ahpwire.SessionArtifactRemoved{ID: old, URI: old}, nil)
	}
	sh.h.st.applySession(se, &ahpwire.SessionArtifactSet{Artifact: a}, nil)
}

// RemoveArtifact removes the session artifact with key id
// (session/artifactRemoved) while the run is live.
func (sh sessionHooks) RemoveArtifact(id string) {
	sh.h.mu.Lock()
	defer sh.h.mu.Unlock()
	se := sh.h.st.sessions[sh.session]
	if sh.run.ctx.Err() != nil || se == nil || !hasArtifact(se.state.Artifacts, id) {
		return
	}
	sh.h.st.applySession(se, &ahpwire.SessionArtifactRemoved{ID: id, URI: id}, nil)
}

func hasArtifact(as []ahpwire.SessionArtifact, id string) bool {
	for _, x := range as {
		if x.ID == id {
			return true
		}
	}
	return false
}

// restoreSessions lists the sessions agents kept across a restart: each is
// ready with an empty default chat; its next turn resumes the agent's
// session. Called once while the store is built.
func (s *store) restoreSessions() {
	eachAgent(s.h.agent, func(a Agent) {
		sl, ok := a.(agent.SessionLister)
		if !ok {
			return
		}
		for _, st := range sl.StoredSessions() {
			if kindOf(st.URI) != chanSession || s.sessions[st.URI] != nil || !s.knownProvider(st.Provider) {
				continue
			}
			var wd []string
			if st.Dir != "" {
				wd = []string{fileURI(st.Dir)}
			}
			se := s.newSession(st.URI, st.Provider, wd)
			if st.CreatedAt != "" {
				se.createdAt = st.CreatedAt
			}
			if st.Title != "" {
				se.state.Title = st.Title
			}
			s.finishSession(st.URI)
			se.restored = true
			// Dated when the agent made it, not now: the agent's index
			// keeps no later time, and "just now" on every one of them
			// was kept by a durable host.
			if ce := s.chats[se.state.DefaultChat]; ce != nil && st.CreatedAt != "" {
				ce.state.ModifiedAt = st.CreatedAt
				s.syncChat(ce)
			}
		}
	})
}

// configChanged hands an accepted session/configChanged to the session's
// agent when it applies configuration at once. h.mu is held.
func (s *store) configChanged(se *sessionEntry, a ahpwire.Action) {
	if _, ok := a.(*ahpwire.SessionConfigChanged); !ok {
		return
	}
	h := s.h
	ag := h.agent
	if m, ok := ag.(*muxAgent); ok {
		ag = m.pick(se.state.Provider)
	}
	ca, ok := ag.(agent.ConfigApplier)
	if !ok || h.closed {
		return
	}
	values := s.turnConfig(&chatEntry{session: se.uri})
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		ca.ApplyConfig(se.uri, values)
	}()
}

// openRestored asks the agent of a restored session for its history the
// first time a client subscribes to one of its chats; the turns it gives
// back are prepended to the default chat (chat/turnsLoaded). h.mu is held.
func (s *store) openRestored(channel string) {
	ce := s.chat(channel)
	if ce == nil {
		return
	}
	se := s.sessions[ce.session]
	if se == nil || !se.restored || se.opened || s.h.closed {
		return
	}
	se.opened = true
	h := s.h
	ag := h.agent
	if m, ok := ag.(*muxAgent); ok {
		ag = m.pick(se.state.Provider)
	}
	op, ok := ag.(agent.SessionOpener)
	if !ok {
		return
	}
	chat := se.state.DefaultChat
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		op.OpenSession(h.ctx, se.uri, func(turns []ahpwire.Turn) { h.restoreTurns(chat, turns) })
	}()
}

// restoreTurns prepends an agent's replayed history to a chat.
func (h *Host) restoreTurns(chat string, turns []ahpwire.Turn) {
	if len(turns) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.st
	ce := s.chat(chat)
	if ce == nil || h.closed {
		return
	}
	s.flushDelta(ce) // the agent's text gathered so far first (coalesce.go)
	a := &ahpwire.ChatTurnsLoaded{Turns: turns, TurnsNextCursor: ce.state.TurnsNextCursor}
	ce.state = reduceChat(ce.state, a)
	s.emit(chat, a, nil, "")
	s.refLargeParts(ce)
	s.syncChat(ce)
}

// closeAgentSession tells the session's agent that it was disposed.
func (h *Host) closeAgentSession(provider, session string) {
	a := h.agent
	if m, ok := a.(*muxAgent); ok {
		a = m.pick(provider)
	}
	if sc, ok := a.(agent.SessionCloser); ok {
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			sc.CloseSession(session)
		}()
	}
}

// closeAgents closes every agent that owns resources (host shutdown).
func closeAgents(a Agent, log *slog.Logger) {
	eachAgent(a, func(x Agent) {
		if c, ok := x.(agent.Closer); ok {
			if err := c.Close(); err != nil {
				log.Warn("closing agent", "err", err)
			}
		}
	})
}
