package ahphost

import (
	"github.com/ahptui/ahptui/ahpwire"
)

// snapshot returns the current state of a channel, windowed for chats by
// sub.viewTurns; false when the channel has no state.
func (s *store) snapshot(uri string, sub subscription) (ahpwire.Snapshot, bool) {
	var state any
	switch kindOf(uri) {
	case chanRoot:
		state = s.root
	case chanSession:
		se := s.sessions[uri]
		if se == nil {
			return ahpwire.Snapshot{}, false
		}
		state = se.state
	case chanChat:
		ce := s.chats[uri]
		if ce == nil {
			return ahpwire.Snapshot{}, false
		}
		state = windowChat(ce.state, sub.viewTurns)
	default:
		var ok bool
		if state, ok = s.extState(uri); !ok {
			return ahpwire.Snapshot{}, false
		}
	}
	snap, err := ahpwire.NewSnapshot(uri, state, s.seq)
	if err != nil {
		s.h.log.Error("cannot encode snapshot", "channel", uri, "err", err)
		return ahpwire.Snapshot{}, false
	}
	return snap, true
}

// windowChat keeps the newest n finished turns (n ≤ 0: all) and sets
// turnsNextCursor when older ones were left out.
func windowChat(st ahpwire.ChatState, n int) ahpwire.ChatState {
	if n <= 0 || len(st.Turns) <= n {
		st.TurnsNextCursor = ""
		return st
	}
	start := len(st.Turns) - n
	st.Turns = st.Turns[start:]
	st.TurnsNextCursor = encodeCursor("t", int64(start))
	return st
}

// subscribe returns a channel's snapshot and starts delivering its actions.
func (c *conn) subscribe(m *ahpwire.Message) (any, func(), *rpcError) {
	var p ahpwire.SubscribeParams
	if e := decode(m, &p); e != nil {
		return nil, nil, e
	}
	s := c.h.st
	var sub subscription
	if p.View != nil && p.View.Turns != nil {
		if *p.View.Turns < 0 {
			return nil, nil, errInvalidParams("view.turns must be ≥ 0")
		}
		sub.viewTurns = *p.View.Turns
	}
	switch kindOf(p.Channel) {
	case chanUnknown:
		return nil, nil, errInvalidParams("unsupported channel URI")
	case chanSession:
		if _, e := s.sessionOf(p.Channel); e != nil {
			return nil, nil, e
		}
	case chanChat:
		if _, e := s.chatOf(p.Channel); e != nil {
			return nil, nil, e
		}
	case chanTerminal, chanChangeset:
		if e := s.extNotFound(p.Channel); e != nil {
			return nil, nil, e
		}
	}
	snap, ok := s.snapshot(p.Channel, sub)
	if !ok {
		return nil, nil, &rpcError{code: ahpwire.CodeInternalError, msg: "cannot encode snapshot"}
	}
	s.subscribe(c, p.Channel, sub)
	res := ahpwire.SubscribeResult{Snapshot: &snap}
	if kindOf(p.Channel) == chanChat {
		res.TurnsNextCursor = windowChat(s.chats[p.Channel].state, sub.viewTurns).TurnsNextCursor
	}
	return res, nil, nil
}

// fetchTurns loads a page of older turns: the host sends chat/turnsLoaded
// to the requesting connection only (other subscribers hold other windows),
// then answers {}.
func (c *conn) fetchTurns(m *ahpwire.Message) (any, func(), *rpcError) {
	var p ahpwire.FetchTurnsParams
	if e := decode(m, &p); e != nil {
		return nil, nil, e
	}
	s := c.h.st
	ce, e := s.chatOf(p.Channel)
	if e != nil {
		return nil, nil, e
	}
	turns := ce.state.Turns
	end := len(turns)
	if p.Cursor != "" {
		pos, ok := decodeCursor(p.Cursor, "t")
		if !ok || pos > int64(len(turns)) {
			return nil, nil, errInvalidParams("unknown cursor")
		}
		end = int(pos)
	}
	limit := DefaultTurnPage
	if sub, ok := c.subs[p.Channel]; ok && sub.viewTurns > 0 {
		limit = sub.viewTurns
	}
	if p.Limit != nil {
		if *p.Limit < 1 {
			return nil, nil, errInvalidParams("limit must be ≥ 1")
		}
		limit = *p.Limit
	}
	start := max(0, end-limit)
	page := append([]ahpwire.Turn(nil), turns[start:end]...)
	loaded := &ahpwire.ChatTurnsLoaded{Turns: page}
	if start > 0 {
		loaded.TurnsNextCursor = encodeCursor("t", int64(start))
	}
	s.emitTo(c, p.Channel, loaded)
	return struct{}{}, nil, nil
}
