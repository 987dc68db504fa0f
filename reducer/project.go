package reducer

import (
	"time"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/textbuf"
)

// Project turns an AHP chat snapshot into a State: finished turns become
// Messages (through Restore) and the active turn becomes a user message
// plus a streaming Current (through UserMessage and MessageSnapshot), so
// that the actions Derive returns for later AHP actions continue it.
func Project(cs ahpwire.ChatState) State {
	return Reattach(State{}, cs)
}

// Reattach applies a snapshot to an existing state (after a reconnect that
// returned snapshots): the transcript is replaced as by Project, while
// Seq keeps growing (so render caches keyed by Rev stay valid) and Ended,
// LastError and Stats are kept.
func Reattach(s State, cs ahpwire.ChatState) State {
	acts := ProjectActions(cs)
	// The Restore's messages are fresh and never leave this call: stamp
	// them instead of copying the whole history once more.
	s = restore(s, acts[0].(Restore), true)
	return ReduceAll(s, acts[1:]...)
}

// ProjectActions returns the lifecycle actions that rebuild cs: Restore,
// ActivityChanged and, for an active turn, UserMessage + MessageSnapshot.
func ProjectActions(cs ahpwire.ChatState) []Action {
	cs = ahpstate.LiftLegacyInputs(cs) // 0.5-era inputRequests show as input blocks
	steering, queued := pending(&cs)
	r := Restore{Messages: turnsMessages(cs.Turns), Steering: steering, Queued: queued}
	out := []Action{r, ActivityChanged{Activity: cs.Activity}}
	if at := cs.ActiveTurn; at != nil {
		out = append(out, userMessage(at.ID, at.StartedAt, at.Message))
		m := &Message{
			ID: at.ID, TurnID: at.ID, Role: RoleAssistant, StartedAt: timestamp(at.StartedAt),
			Blocks: partBlocks(at.ID, at.ResponseParts.Slice(), true), Status: StatusStreaming,
		}
		if at.Usage != nil {
			u := usage(*at.Usage)
			m.Usage = &u
		}
		out = append(out, MessageSnapshot{Message: m})
	}
	return out
}

// pending returns the steering message (the 1.0 single one, else the last
// of the list) and the queued messages of cs.
func pending(cs *ahpwire.ChatState) (*PendingMessage, []PendingMessage) {
	var steering *PendingMessage
	if cs.SteeringMessage != nil {
		steering = &PendingMessage{ID: cs.SteeringMessage.ID, Text: cs.SteeringMessage.Message.Text}
	} else if n := len(cs.SteeringMessages); n > 0 {
		steering = &PendingMessage{ID: cs.SteeringMessages[n-1].ID, Text: cs.SteeringMessages[n-1].Message.Text}
	}
	var queued []PendingMessage
	for _, q := range cs.QueuedMessages {
		queued = append(queued, PendingMessage{ID: q.ID, Text: q.Message.Text})
	}
	return steering, queued
}

// userMessage returns the UserMessage that starts turn id.
func userMessage(id, startedAt string, msg ahpwire.ChatMessage) UserMessage {
	return UserMessage{
		TurnID: id, Text: msg.Text, Origin: msg.Origin.Kind,
		Attachments: attachments(msg.Attachments), StartedAt: timestamp(startedAt),
	}
}

// turnsMessages converts finished turns into their user and assistant
// messages.
func turnsMessages(ts []ahpwire.Turn) []*Message {
	ms := make([]*Message, 0, 2*len(ts))
	for i := range ts {
		started := timestamp(ts[i].StartedAt)
		ms = append(ms, turnUserMessage(&ts[i], started), turnAssistantMessage(&ts[i], started))
	}
	return ms
}

// turnUserMessage converts a finished turn's message into its user
// message; started is the turn's parsed StartedAt.
func turnUserMessage(t *ahpwire.Turn, started time.Time) *Message {
	user := &Message{
		ID: UserMessageID(t.ID), TurnID: t.ID, Role: RoleUser, Origin: t.Message.Origin.Kind,
		Attachments: attachments(t.Message.Attachments), StartedAt: started, Status: StatusComplete,
		Blocks: BlocksOf(&Block{Kind: KindText, text: textbuf.Of(t.Message.Text)}),
	}
	if user.Origin == "" {
		user.Origin = "user"
	}
	return user
}

// turnAssistantMessage converts a finished turn's response into its
// assistant message (started as for turnUserMessage). A 0.5-era
// Turn.error becomes a trailing error block.
func turnAssistantMessage(t *ahpwire.Turn, started time.Time) *Message {
	m := &Message{
		ID: t.ID, TurnID: t.ID, Role: RoleAssistant, StartedAt: started,
		Duration: duration(t.Duration), Status: turnStatus(t.State), Blocks: partBlocks(t.ID, t.ResponseParts, false),
	}
	if n := m.Blocks.Len(); n > 0 && (t.State != ahpwire.TurnError || t.Error != nil) {
		// A resumable error last in a turn that did not end in it (it
		// was cancelled, completed or failed otherwise): it was resumed.
		markResumed(m.Blocks.At(n - 1))
	}
	if t.Error != nil {
		e := errorInfo(*t.Error, false)
		m.Blocks = m.Blocks.Append(&Block{Index: m.Blocks.Len(), Kind: KindError, Err: &e})
	}
	if t.Usage != nil {
		u := usage(*t.Usage)
		m.Usage = &u
	}
	return m
}

// turnStatus maps a finished turn's state to a message status.
func turnStatus(state string) MessageStatus {
	switch state {
	case ahpwire.TurnCancelled:
		return StatusCancelled
	case ahpwire.TurnError:
		return StatusError
	}
	return StatusComplete
}

// partBlocks converts response parts into blocks, one per part; open says
// whether they belong to an active turn (see partOpen).
func partBlocks(msgID string, parts []ahpwire.ResponsePart, open bool) Blocks {
	out := make([]*Block, 0, len(parts))
	for i := range parts {
		b := newBlock(partStart(msgID, &parts[i]))
		if b == nil { // a payload-less part: keep the one-block-per-part shape
			b = &Block{Kind: KindUnknown, Unknown: &UnknownPart{Kind: parts[i].Kind}}
		}
		b.Open = open && partOpen(&parts[i])
		b.Index = len(out)
		if open || i < len(parts)-1 {
			// An error part is a turn's last unless the turn was resumed
			// after it (chat/error ends a turn; chat/turnResume keeps it).
			markResumed(b)
		}
		out = append(out, b)
	}
	return BlocksOf(out...)
}

// markResumed marks b, when it is a resumable error, as one its turn was
// resumed after (on a copy of its ErrorInfo: blocks share it).
func markResumed(b *Block) {
	if b.Kind != KindError || b.Err == nil || !b.Err.Resumable {
		return
	}
	e := *b.Err
	e.Resumable, e.Resumed = false, true
	b.Err = &e
}
