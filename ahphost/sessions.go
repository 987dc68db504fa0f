package ahphost

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// sessionEntry is one session's state.
type sessionEntry struct {
	uri       string
	state     ahpwire.SessionState
	createdAt string
	touch     int64 // recency order for listSessions
	// published is the summary last announced to root subscribers.
	published ahpwire.SessionSummary
	// restored marks a session an agent kept across a restart; opened is
	// set once its agent was asked to bring back its history.
	restored, opened bool
	// annotations is the state of the session's annotations channel
	// (annotations.go); it is part of the session and goes with it.
	annotations ahpwire.AnnotationsState
}

// summary builds the session's SessionSummary.
func (s *store) summary(se *sessionEntry) ahpwire.SessionSummary {
	st := &se.state
	sum := ahpwire.SessionSummary{
		Resource:           se.uri,
		Provider:           st.Provider,
		Title:              st.Title,
		Status:             st.Status,
		Activity:           st.Activity,
		CreatedAt:          ahpwire.Timestamp(se.createdAt),
		ModifiedAt:         ahpwire.Timestamp(se.createdAt),
		WorkingDirectories: st.WorkingDirectories,
		DefaultChat:        st.DefaultChat,
		Annotations:        annotationsSummary(se),
	}
	sum.Status = aggregateStatus(st)
	for _, cs := range st.Chats {
		status := cs.Status
		sum.Chats = append(sum.Chats, ahpwire.SessionChatSummary{
			Resource: cs.Resource, Title: cs.Title, Origin: cs.Origin,
			Interactivity: cs.Interactivity, Status: &status, Changes: cs.Changes,
		})
		if string(cs.ModifiedAt) > string(sum.ModifiedAt) {
			sum.ModifiedAt = cs.ModifiedAt
		}
	}
	return sum
}

// aggregateStatus derives a session's status from its chats (session
// channel spec, "Chat aggregation"): activity bits from the default chat,
// else the most recently modified one; InputNeeded and Error promoted from
// any chat; IsRead/IsArchived stay session-scoped.
func aggregateStatus(st *ahpwire.SessionState) ahpwire.SessionStatus {
	flags := st.Status &^ ahpwire.StatusActivityMask
	if len(st.Chats) == 0 {
		return st.Status
	}
	pick := -1
	for i, cs := range st.Chats {
		if cs.Resource == st.DefaultChat {
			pick = i
			break
		}
		if pick < 0 || string(cs.ModifiedAt) > string(st.Chats[pick].ModifiedAt) {
			pick = i
		}
	}
	act := st.Chats[pick].Status.Activity()
	for _, cs := range st.Chats {
		switch {
		case cs.Status.Has(ahpwire.StatusInputNeeded):
			act = ahpwire.StatusInputNeeded
		case cs.Status.Activity() == ahpwire.StatusError && act != ahpwire.StatusInputNeeded:
			act = ahpwire.StatusError
		}
	}
	return flags | act
}

// createSession creates a session at the client-chosen URI; it becomes
// ready with a default chat right after the (null) response.
func (c *conn) createSession(p *ahpwire.CreateSessionParams) (any, func(), *rpcError) {
	s := c.h.st
	if kindOf(p.Channel) != chanSession || len(p.Channel) > 512 {
		return nil, nil, errInvalidParams("channel must be an ahp-session:/<id> URI")
	}
	if s.sessions[p.Channel] != nil {
		return nil, nil, &rpcError{code: ahpwire.CodeSessionAlreadyExists, msg: "session already exists"}
	}
	provider := p.Provider
	if provider == "" && len(s.root.Agents) > 0 {
		provider = s.root.Agents[0].Provider
	}
	if !s.knownProvider(provider) {
		return nil, nil, &rpcError{code: ahpwire.CodeProviderNotFound, msg: "provider not found: " + truncate(provider, 64)}
	}
	if e := s.requireSignIn(c.clientID, provider); e != nil {
		return nil, nil, e
	}
	wd := p.WorkingDirectories
	if len(wd) == 0 {
		wd = []string{fileURI(c.h.opts.Dir)}
	}
	cfg, e := s.sessionConfig(*p)
	if e != nil {
		return nil, nil, e
	}
	s.initSession(s.newSession(p.Channel, provider, wd), cfg)
	return nil, func() { s.finishSession(p.Channel) }, nil
}

// knownProvider reports whether RootState.agents lists provider.
func (s *store) knownProvider(p string) bool {
	for _, a := range s.root.Agents {
		if a.Provider == p {
			return true
		}
	}
	return false
}

// newSession adds a session in lifecycle "creating".
func (s *store) newSession(uri, provider string, wd []string) *sessionEntry {
	s.touch++
	se := &sessionEntry{
		uri:       uri,
		createdAt: s.now(),
		touch:     s.touch,
		state: ahpwire.SessionState{
			Provider:           provider,
			Title:              "New session",
			Status:             ahpwire.StatusIdle,
			Lifecycle:          ahpwire.LifecycleCreating,
			WorkingDirectories: wd,
		},
	}
	s.sessions[uri] = se
	s.persistChanged(uri)
	return se
}

// finishSession makes a session ready, adds its default chat and announces
// it on the root channel.
func (s *store) finishSession(uri string) {
	se := s.sessions[uri]
	if se == nil {
		return
	}
	s.applySession(se, &ahpwire.SessionReady{}, nil)
	chat := defaultChatURI(uri)
	if s.chatExists(chat) {
		chat = chat + "-" + strconv.FormatInt(s.touch, 10)
	}
	s.addChat(se, chat, nil)
	s.applySession(se, &ahpwire.SessionDefaultChatChanged{DefaultChat: chat}, nil)
	s.activeSessionsChanged()
	se.published = s.summary(se)
	s.notifyRoot(ahpwire.MethodSessionAdded, ahpwire.SessionAddedParams{Channel: ahpwire.RootURI, Summary: se.published})
}

// defaultChatURI derives the default chat's URI from the session's id.
func defaultChatURI(session string) string {
	return ahpwire.ChatScheme + "/" + strings.TrimPrefix(session, ahpwire.SessionScheme+"/")
}

// activeSessionsChanged emits root/activeSessionsChanged.
func (s *store) activeSessionsChanged() {
	n := int64(len(s.sessions))
	a := &ahpwire.RootActiveSessionsChanged{ActiveSessions: n}
	s.root = reduceRoot(s.root, a)
	s.emit(ahpwire.RootURI, a, nil, "")
}

// applySession reduces a server action into a session and broadcasts it.
func (s *store) applySession(se *sessionEntry, a ahpwire.Action, origin *ahpwire.ActionOrigin) {
	se.state = reduceSession(se.state, a)
	s.emit(se.uri, a, origin, "")
}

// disposeSession removes a session and all of its chats.
func (c *conn) disposeSession(p *ahpwire.ChannelParams) (any, func(), *rpcError) {
	s := c.h.st
	se, e := s.sessionOf(p.Channel)
	if e != nil {
		return nil, nil, e
	}
	chats := make([]string, 0, len(se.state.Chats))
	for _, cs := range se.state.Chats {
		s.removeChat(cs.Resource)
		chats = append(chats, cs.Resource)
	}
	delete(s.sessions, p.Channel)
	s.disposeOwned(chats) // dispose.go
	s.dropChannel(p.Channel)
	s.dropChannel(ahpwire.AnnotationsURI(p.Channel))
	s.persistDeleted(p.Channel)
	s.persistDeleted(ahpwire.AnnotationsURI(p.Channel))
	provider := se.state.Provider
	return nil, func() {
		s.activeSessionsChanged()
		s.notifyRoot(ahpwire.MethodSessionRemoved, ahpwire.SessionRemovedParams{Channel: ahpwire.RootURI, Session: p.Channel})
		c.h.closeAgentSession(provider, p.Channel)
	}, nil
}

// publishSummary announces summary changes of a session to root
// subscribers (root/sessionSummaryChanged) and bumps its recency.
func (s *store) publishSummary(se *sessionEntry) {
	cur := s.summary(se)
	old := se.published
	var ch ahpwire.PartialSessionSummary
	changed := false
	if cur.Title != old.Title {
		ch.Title, changed = &cur.Title, true
	}
	if cur.Status != old.Status {
		ch.Status, changed = &cur.Status, true
	}
	if cur.Activity != old.Activity {
		ch.Activity, changed = &cur.Activity, true
	}
	if cur.ModifiedAt != old.ModifiedAt {
		ch.ModifiedAt, changed = &cur.ModifiedAt, true
	}
	if cur.DefaultChat != old.DefaultChat {
		ch.DefaultChat, changed = &cur.DefaultChat, true
	}
	if !sameChats(cur.Chats, old.Chats) {
		ch.Chats, changed = cur.Chats, true
	}
	if !sameAnnotations(cur.Annotations, old.Annotations) {
		ch.Annotations, changed = cur.Annotations, true
	}
	if !changed {
		return
	}
	s.touch++
	se.touch = s.touch
	se.published = cur
	s.notifyRoot(ahpwire.MethodSessionSummaryChanged, ahpwire.SessionSummaryChangedParams{
		Channel: ahpwire.RootURI, Session: se.uri, Changes: ch,
	})
}

func sameChats(a, b []ahpwire.SessionChatSummary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Resource != b[i].Resource || a[i].Title != b[i].Title ||
			(a[i].Status == nil) != (b[i].Status == nil) ||
			(a[i].Status != nil && *a[i].Status != *b[i].Status) {
			return false
		}
	}
	return true
}

// listSessions returns sessions most recently modified first, paged by an
// opaque cursor.
func (c *conn) listSessions(p *ahpwire.ListSessionsParams) (any, func(), *rpcError) {
	s := c.h.st
	all := make([]*sessionEntry, 0, len(s.sessions))
	for _, se := range s.sessions {
		all = append(all, se)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].touch > all[j].touch })
	start := 0
	if p.Cursor != "" {
		touch, ok := decodeCursor(p.Cursor, "s")
		if !ok {
			return nil, nil, errInvalidParams("unknown cursor")
		}
		start = sort.Search(len(all), func(i int) bool { return all[i].touch < touch })
	}
	end := len(all)
	if p.Limit != nil {
		if *p.Limit < 1 {
			return nil, nil, errInvalidParams("limit must be ≥ 1")
		}
		// Compare before adding: start+limit overflows for limits near 2^63.
		if rest := len(all) - start; *p.Limit < rest {
			end = start + *p.Limit
		}
	}
	res := ahpwire.ListSessionsResult{Items: make([]ahpwire.SessionSummary, 0, end-start)}
	for _, se := range all[start:end] {
		res.Items = append(res.Items, s.summary(se))
	}
	if end < len(all) && end > start {
		res.NextCursor = encodeCursor("s", all[end-1].touch)
	}
	return res, nil, nil
}

// encodeCursor makes an opaque cursor from a kind tag and a position.
func encodeCursor(kind string, pos int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + strconv.FormatInt(pos, 10)))
}

// decodeCursor reverses encodeCursor.
func decodeCursor(cur, kind string) (int64, bool) {
	b, err := base64.RawURLEncoding.DecodeString(cur)
	if err != nil {
		return 0, false
	}
	k, v, ok := strings.Cut(string(b), ":")
	if !ok || k != kind {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}
