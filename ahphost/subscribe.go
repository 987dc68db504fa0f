package ahphost

import (
	"encoding/json"
	"fmt"

	"github.com/ahptui/ahptui/ahpwire"
)

// snapshot captures the current state of a channel, windowed for chats by
// sub.viewTurns; false when the channel has no state. Nothing is encoded
// here (see snapRef).
func (s *store) snapshot(uri string, sub subscription) (snapRef, bool) {
	var state any
	switch kindOf(uri) {
	case chanRoot:
		state = s.root
	case chanSession:
		se := s.sessions[uri]
		if se == nil {
			return snapRef{}, false
		}
		state = se.state
	case chanChat:
		ce := s.chat(uri)
		if ce == nil {
			return snapRef{}, false
		}
		w := windowChat(ce.state, sub.viewTurns)
		if off := len(ce.state.Turns) - len(w.Turns); off < ce.lastLarge && ce.lastLarge <= len(ce.state.Turns) {
			// Turns with large parts come through fetchTurns, by reference.
			w.Turns = w.Turns[ce.lastLarge-off:]
			w.TurnsNextCursor = encodeCursor("t", int64(ce.lastLarge))
		}
		return snapRef{uri: uri, state: w, seq: s.seq, turnsOffset: len(ce.state.Turns) - len(w.Turns)}, true
	default:
		var ok bool
		if state, ok = s.extState(uri); !ok {
			return snapRef{}, false
		}
	}
	return snapRef{uri: uri, state: state, seq: s.seq}, true
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
func (c *conn) subscribe(p *ahpwire.SubscribeParams) (any, func(), *rpcError) {
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
	case chanTerminal, chanChangeset, chanAnnotations, chanResourceWatch:
		if e := s.extNotFound(p.Channel); e != nil {
			return nil, nil, e
		}
	}
	ref, ok := s.snapshot(p.Channel, sub)
	if !ok {
		return nil, nil, &rpcError{code: ahpwire.CodeInternalError, msg: "cannot encode snapshot"}
	}
	prev, had := c.subs[p.Channel]
	if !had && len(c.subs) >= c.h.opts.MaxSubscriptions {
		return nil, nil, errInvalidParams(fmt.Sprintf("too many subscriptions on this connection (max %d)", c.h.opts.MaxSubscriptions))
	}
	s.subscribe(c, p.Channel, sub)
	s.openRestored(p.Channel)
	return &deferred{
		light: lightRefs([]snapRef{ref}),
		build: func(limit int64) (any, error) {
			snaps, cursors, err := encodeSnapshots([]snapRef{ref}, limit)
			if err != nil {
				return nil, err
			}
			return ahpwire.SubscribeResult{Snapshot: &snaps[0], TurnsNextCursor: cursors[0]}, nil
		},
		rollback: func() {
			if had {
				s.subscribe(c, p.Channel, prev)
			} else {
				s.unsubscribe(c, p.Channel)
			}
		},
	}, nil, nil
}

// fetchTurns loads a page of older turns: the host sends chat/turnsLoaded
// to the requesting connection only (other subscribers hold other windows),
// then answers {}.
func (c *conn) fetchTurns(p *ahpwire.FetchTurnsParams) (any, func(), *rpcError) {
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
	// The page also fits the peer's message limit: the newest turns before
	// the cursor whose encoding fits (at least one), so a client that does
	// not segment can page through a chat of any size.
	budget := c.messageLimit() - 1024
	start, size := end, int64(0)
	var served []ahpwire.Turn // newest first; large parts by reference
	for start > 0 && end-start < limit {
		t := s.referencedTurn(ce, turns[start-1])
		b, err := json.Marshal(t)
		if err != nil {
			return nil, nil, &rpcError{code: ahpwire.CodeInternalError, msg: "cannot encode turn"}
		}
		if size+int64(len(b))+1 > budget && start < end {
			break
		}
		size += int64(len(b)) + 1
		start--
		served = append(served, t)
	}
	page := make([]ahpwire.Turn, len(served))
	for i, t := range served {
		page[len(served)-1-i] = t
	}
	loaded := &ahpwire.ChatTurnsLoaded{Turns: page}
	if start > 0 {
		loaded.TurnsNextCursor = encodeCursor("t", int64(start))
	}
	s.emitTo(c, p.Channel, loaded)
	return struct{}{}, nil, nil
}
