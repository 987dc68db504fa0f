// Snapshots of a durable host's channels (issue 28): when a channel's
// whole state is written again instead of more of its log, and what that
// state is.

package ahphost

// When a channel is snapshotted again: once its log since the last
// snapshot is larger than minSnapTail and a multiple of that snapshot's
// size (four times it while the chat is idle, eight times while a turn
// streams, whose deltas would otherwise make it re-encode a growing reply
// over and over; a delta's envelope is 3–5 times its text). Encoding
// snapshots costs at most a quarter of what was logged, and a restart
// replays at most about eight times a channel's state.
const (
	minSnapTail    = 1 << 20
	streamSnapTail = 16 << 20
)

// snapJob is a channel state captured under h.mu, encoded outside it
// (states are immutable values).
type snapJob struct {
	uri   string
	state any
	meta  chanMeta
	// compact: the channel's log holds all of it (the snapshot only
	// shortens the log); otherwise it changed without an action, and the
	// snapshot must be written before anything that shows the change.
	compact bool
}

// snapTail is the log that makes channel uri, last snapshotted at snap
// bytes, due for a new snapshot. h.mu is held.
func (s *store) snapTail(uri string, snap int64) int64 {
	if ce := s.chats[uri]; ce != nil && ce.state.ActiveTurn != nil {
		return max(streamSnapTail, 8*snap)
	}
	return max(minSnapTail, 4*snap)
}

// persistState returns a channel's state and meta to snapshot.
func (s *store) persistState(uri string) (any, chanMeta, bool) {
	switch kindOf(uri) {
	case chanSession:
		if se := s.sessions[uri]; se != nil {
			return se.state, chanMeta{CreatedAt: se.createdAt}, true
		}
	case chanAnnotations:
		if se := s.annotationsOf(uri); se != nil {
			return se.annotations, chanMeta{}, true
		}
	case chanChat:
		if ce := s.chats[uri]; ce != nil {
			turn, since := ce.resumedMeta()
			return ce.state, chanMeta{Session: ce.session, ResumedTurn: turn, RunSince: since}, true
		}
	case chanTerminal:
		if t := s.ext.terminals[uri]; t != nil {
			order := 0
			for i, u := range s.ext.termOrder {
				if u == uri {
					order = i
				}
			}
			return *t, chanMeta{Order: order}, true
		}
	case chanChangeset:
		if c := s.ext.changesets[uri]; c != nil {
			return c.state, chanMeta{Reviewable: c.reviewable}, true
		}
	}
	return nil, chanMeta{}, false
}
