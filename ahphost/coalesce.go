package ahphost

import (
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// Coalesced deltas (fan-out and persistence, issue 28).
//
// An agent streams a reply in small chunks: the demo's 3 MB reply is
// 75,000 deltas of 20–60 bytes, and an ACP agent's text arrives much the
// same. Each became an action with its own serverSeq: logged, committed,
// queued to every subscriber and written to each, the envelope three to
// five times the text. The host now gathers an agent's consecutive deltas
// to one part for at most Options.DeltaWindow (or deltaBytes of text) and
// sends them as one chat/delta. What clients reduce is the same text in
// the same place; a delta waiting is no action yet (it has no serverSeq,
// so nothing acknowledged waits). Anything else that changes the chat —
// the agent's next action of another kind, a client's action, the turn's
// end, the window's timer — sends what waits first, so the chat's actions
// keep their order. A window is shorter than a frame of the TUI.

// DefaultDeltaWindow is Options.DeltaWindow's default.
const DefaultDeltaWindow = 8 * time.Millisecond

// deltaBytes is the most text gathered in one delta.
const deltaBytes = 4 << 10

// pendingDelta is an agent's text to one part, gathered (chatEntry.delta).
type pendingDelta struct {
	turnID, partID string
	text           strings.Builder
	timer          *time.Timer
}

// deltaWindow is how long an agent's deltas are gathered (0: not).
func (o Options) deltaWindow() time.Duration {
	switch {
	case o.DeltaWindow < 0:
		return 0
	case o.DeltaWindow == 0:
		return DefaultDeltaWindow
	}
	return o.DeltaWindow
}

// gatherDelta keeps d to be sent with the agent's next deltas to its
// part; false leaves it to the caller (gathering is off, d carries _meta,
// or its part already streams as pages). h.mu is held.
func (s *store) gatherDelta(ce *chatEntry, d *ahpwire.ChatDelta) bool {
	win := s.h.opts.deltaWindow()
	if win <= 0 || len(d.Meta) > 0 {
		return false
	}
	if sp := ce.spill; sp != nil && sp.turnID == d.TurnID && sp.partID == d.PartID {
		return false // (streamLarge gathers it into pages)
	}
	p := ce.delta
	if p != nil && (p.turnID != d.TurnID || p.partID != d.PartID) {
		s.flushDelta(ce)
		p = nil
	}
	if p == nil {
		p = &pendingDelta{turnID: d.TurnID, partID: d.PartID}
		ce.delta = p
		h := s.h
		p.timer = time.AfterFunc(win, func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			if ce.delta == p && !h.closed && h.st.chats[ce.uri] == ce {
				h.st.flushDelta(ce)
			}
		})
	}
	p.text.WriteString(d.Content)
	if p.text.Len() >= deltaBytes {
		s.flushDelta(ce)
	}
	return true
}

// flushDelta sends the text gathered for ce, if any, as one delta. Every
// change to the chat's state calls it first. h.mu is held.
func (s *store) flushDelta(ce *chatEntry) {
	p := ce.delta
	if p == nil {
		return
	}
	ce.delta = nil
	p.timer.Stop()
	s.agentDelta(ce, &ahpwire.ChatDelta{TurnID: p.turnID, PartID: p.partID, Content: p.text.String()})
}
