// Streamed text in the state database (issue 28): a run of deltas of one
// part is logged as one action.

package ahphost

import "github.com/ahptui/ahptui/ahpwire"

// textRun is a run of streamed text deltas (chat/delta or chat/reasoning)
// of one part, logged as one action: reducing the joined text is reducing
// the deltas one by one (ahpstate appends them), so a reply streamed in
// 20–60-byte deltas costs its text in the database, not an envelope per
// delta. Any other action of the channel ends the run.
type textRun struct {
	reasoning      bool
	turnID, partID string
	text           []byte
	seq            uint64 // of the last delta
	last           int    // bytes the last add took
}

// add joins a's text to the run when a continues it (or starts one when
// the run is empty); false when a is not a delta of the run's part.
func (r *textRun) add(a ahpwire.Action, seq uint64) bool {
	var turn, part, text string
	var reasoning bool
	switch d := a.(type) {
	case *ahpwire.ChatDelta:
		if len(d.Meta) > 0 {
			return false
		}
		turn, part, text = d.TurnID, d.PartID, d.Content
	case *ahpwire.ChatReasoning:
		if len(d.Meta) > 0 {
			return false
		}
		turn, part, text, reasoning = d.TurnID, d.PartID, d.Content, true
	default:
		return false
	}
	if r.seq != 0 && (r.reasoning != reasoning || r.turnID != turn || r.partID != part) {
		return false
	}
	r.reasoning, r.turnID, r.partID, r.seq, r.last = reasoning, turn, part, seq, len(text)
	r.text = append(r.text, text...)
	return true
}

// flushText logs channel's text run as one action. h.mu is held.
func (s *store) flushText(channel string, cp *chanPersist) {
	r := &cp.text
	if r.seq == 0 {
		return
	}
	var a ahpwire.Action = &ahpwire.ChatDelta{TurnID: r.turnID, PartID: r.partID, Content: string(r.text)}
	if r.reasoning {
		a = &ahpwire.ChatReasoning{TurnID: r.turnID, PartID: r.partID, Content: string(r.text)}
	}
	env, _, err := envelopeFrame(channel, r.seq, a, nil, nil, "")
	if err != nil {
		s.h.log.Error("cannot encode streamed text for the state database", "channel", truncate(channel, 200), "err", err)
	} else {
		s.persist.batch.Append(channel, r.seq, env)
	}
	*r = textRun{text: r.text[:0]}
	if cap(r.text) > 64<<10 {
		r.text = nil
	}
}
