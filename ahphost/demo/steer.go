package demo

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// steerState tracks steering messages (chat/pendingMessageSet kind
// "steering") the agent has been handed during its turn.
type steerState struct {
	pending []ahpwire.PendingMessage // received, not yet reacted to
	active  bool                     // reacting now (no nested reactions)
	stop    bool                     // the user asked the agent to stop
	count   int                      // steering messages consumed
}

// noteSteering records a steering set/remove and reports whether a was one.
func (r *run) noteSteering(a ahpwire.Action) bool {
	switch a := a.(type) {
	case *ahpwire.ChatPendingMessageSet:
		if a.Kind != ahpwire.PendingSteering {
			return false
		}
		// The steering slot holds one message: a set replaces what is there.
		r.steer.pending = []ahpwire.PendingMessage{{ID: a.ID, Message: a.Message}}
		return true
	case *ahpwire.ChatPendingMessageRemoved:
		if a.Kind != ahpwire.PendingSteering {
			return false
		}
		out := r.steer.pending[:0]
		for _, p := range r.steer.pending {
			if p.ID != a.ID {
				out = append(out, p)
			}
		}
		r.steer.pending = out
		return true
	}
	return false
}

// pollClient reads the client actions available now without blocking:
// steering is recorded, drafts noted, anything else kept for await.
func (r *run) pollClient() {
	if r.t.Client == nil {
		return
	}
	for {
		select {
		case a, ok := <-r.t.Client:
			if !ok {
				return
			}
			r.noteDraft(a)
			if !r.noteSteering(a) && a != nil {
				r.backlog = append(r.backlog, a)
			}
		default:
			return
		}
	}
}

// steerPoint is called between streamed chunks: when a steering message
// has arrived, the agent consumes it (chat/pendingMessageRemoved, as the
// protocol's server consumption rule says), streams a visible reaction in a
// part of its own and reports true so the caller continues in a new part.
// A message that asks to stop ("stop", "enough", "wrap up") sets steer.stop.
func (r *run) steerPoint() (bool, error) {
	if r.steer.active {
		return false, nil
	}
	r.pollClient()
	if len(r.steer.pending) == 0 {
		return false, nil
	}
	m := r.steer.pending[0]
	r.steer.pending = r.steer.pending[1:]
	r.steer.count++
	if err := r.emit(&ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingSteering, ID: m.ID}); err != nil {
		return false, err
	}
	r.steer.active = true
	defer func() { r.steer.active = false }()
	text := strings.TrimSpace(m.Message.Text)
	reply := "Got it — adjusting course and keeping that in mind for the rest of this answer."
	if wantsStop(text) {
		r.steer.stop = true
		reply = "Understood — stopping here."
	}
	quote := shortPrompt(text, 200)
	if err := r.streamMarkdown("\n\n> ↪ **Steering received:** " + quote + "\n\n" + reply + "\n\n"); err != nil {
		return false, err
	}
	return true, nil
}

// wantsStop reports whether a steering message asks the agent to stop.
func wantsStop(text string) bool {
	t := strings.ToLower(text)
	for _, w := range []string{"stop", "enough", "wrap up", "halt"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}
