// A turn's running time (issue 28): a turn the host's stop interrupted
// ends with the time it ran (endInterrupted), and when it is resumed
// (chat/turnResume) it counts on from there: its duration is the time it
// ran before the interruption plus the time since the resume, never the
// time the host was down or the turn sat interrupted. The host keeps the
// resumed turn's moved start (resumedTurn) in memory and in the chat's
// stored meta, so a second interruption is timed the same way.

package ahphost

import (
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// resumedTurn is the resumed turn of a chat and when it would have
// started had it run without a pause: now less the time it had run.
type resumedTurn struct {
	turnID string
	since  time.Time
}

// noteResume records that turnID, the chat's last turn, resumes now. It
// runs before chat/turnResume is reduced (the turn's duration is still
// there). A turn that reported no duration counts from its startedAt.
// h.mu is held.
func (s *store) noteResume(ce *chatEntry, turnID string) {
	ce.resumed = resumedTurn{}
	if n := len(ce.state.Turns); n > 0 {
		if t := ce.state.Turns[n-1]; t.ID == turnID && t.Duration != nil {
			ran := time.Duration(max(0, *t.Duration)) * time.Millisecond
			ce.resumed = resumedTurn{turnID: turnID, since: s.h.opts.Now().Add(-ran)}
		}
	}
	s.persistChanged(ce.uri) // the chat's meta keeps it (chanMeta.RunSince)
}

// turnStart returns when ce's active turn's running time starts: its
// startedAt, or the moved start of a resumed turn (zero when unknown).
func (s *store) turnStart(ce *chatEntry) time.Time {
	at := ce.state.ActiveTurn
	if at == nil {
		return time.Time{}
	}
	if r := ce.resumed; r.turnID == at.ID && !r.since.IsZero() {
		return r.since
	}
	t, err := time.Parse(time.RFC3339Nano, at.StartedAt)
	if err != nil {
		return time.Time{}
	}
	return t
}

// turnDuration returns the milliseconds ce's active turn has run (≥ 0).
func (s *store) turnDuration(ce *chatEntry) int64 {
	start := s.turnStart(ce)
	if start.IsZero() {
		return 0
	}
	return max(0, s.h.opts.Now().Sub(start).Milliseconds())
}

// resumedMeta returns the stored meta's fields of ce's resumed turn, when
// its active turn is one.
func (ce *chatEntry) resumedMeta() (turnID, since string) {
	if at := ce.state.ActiveTurn; at != nil && ce.resumed.turnID == at.ID && !ce.resumed.since.IsZero() {
		return at.ID, ce.resumed.since.UTC().Format(time.RFC3339Nano)
	}
	return "", ""
}

// restoreResumed reads a stored chat's resumed turn from its meta.
func (ce *chatEntry) restoreResumed(m chanMeta) {
	at := ce.state.ActiveTurn
	if at == nil || m.ResumedTurn != at.ID || m.RunSince == "" {
		return
	}
	if t, err := time.Parse(time.RFC3339Nano, m.RunSince); err == nil {
		ce.resumed = resumedTurn{turnID: at.ID, since: t}
	}
}

// resumedCancel is a client's chat/turnCancelled of a resumed turn with
// the duration the host measured: the client's own counts from the turn's
// startedAt, across the pause (nil when a needs no change).
func (s *store) resumedCancel(ce *chatEntry, a ahpwire.Action) *ahpwire.ChatTurnCancelled {
	c, ok := a.(*ahpwire.ChatTurnCancelled)
	at := ce.state.ActiveTurn
	if !ok || at == nil || c.TurnID != at.ID || ce.resumed.turnID != at.ID {
		return nil
	}
	cp := *c
	cp.Duration = ahpwire.Ptr(s.turnDuration(ce))
	return &cp
}
