// Streamed text in the state database (issue 28): a run of deltas of one
// part is logged as one action.

package ahphost

import (
	"sync"

	"github.com/ahptui/ahptui/ahphost/durable"
	"github.com/ahptui/ahptui/ahpwire"
)

// textBufs holds the buffers of finished runs for the next ones (a run
// grows to a commit's worth of a reply's text, up to hundreds of KB).
var textBufs sync.Pool

// maxPooledText is the largest buffer kept in textBufs.
const maxPooledText = 1 << 20

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
	if r.text == nil {
		if b, ok := textBufs.Get().(*[]byte); ok {
			r.text = (*b)[:0]
		}
	}
	r.text = append(r.text, text...)
	return true
}

// flushText logs channel's text run as one action, in its place among
// the channel's envelopes. h.mu is held.
func (s *store) flushText(channel string, cp *chanPersist) {
	r := cp.text
	if r.seq == 0 {
		return
	}
	cp.text = textRun{}
	s.h.logText(s.persist.batch, channel, r)
}

// detachedRun is a channel's text run taken out with its batch, logged
// outside h.mu (take).
type detachedRun struct {
	channel string
	run     textRun
}

// logText appends run r of channel to b as one action and lets its
// buffer go. It needs h.mu only when b is the pending batch.
func (h *Host) logText(b *durable.Batch, channel string, r textRun) {
	var a ahpwire.Action = &ahpwire.ChatDelta{TurnID: r.turnID, PartID: r.partID, Content: string(r.text)}
	if r.reasoning {
		a = &ahpwire.ChatReasoning{TurnID: r.turnID, PartID: r.partID, Content: string(r.text)}
	}
	env, _, err := envelopeFrame(channel, r.seq, a, nil, nil, "")
	if err != nil {
		h.log.Error("cannot encode streamed text for the state database", "channel", truncate(channel, 200), "err", err)
	} else {
		b.Append(channel, r.seq, env)
	}
	if cap(r.text) <= maxPooledText {
		buf := r.text[:0]
		textBufs.Put(&buf)
	}
}
