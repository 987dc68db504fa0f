package reducer

import "github.com/ahptui/ahptui/internal/textbuf"

import "github.com/ahptui/ahptui/ahpwire"

// Project turns an AHP chat snapshot into a State: finished turns become
// Messages (through Restore) and the active turn becomes a user message
// plus a streaming Current (through UserMessage and MessageSnapshot), so
// that the actions following the snapshot continue it.
func Project(cs ahpwire.ChatState) State {
	return ReduceAll(State{}, ProjectActions(cs)...)
}

// Reattach applies a snapshot to an existing state (after a reconnect that
// returned snapshots): the transcript is replaced as by Project, while
// Seq keeps growing (so render caches keyed by Rev stay valid) and Ended,
// LastError and Stats are kept.
func Reattach(s State, cs ahpwire.ChatState) State {
	return ReduceAll(s, ProjectActions(cs)...)
}

// ProjectActions returns the lifecycle actions that rebuild cs: Restore,
// ActivityChanged and, for an active turn, UserMessage + MessageSnapshot.
// 0.5-era ChatState.inputRequests join the active turn as input requests.
func ProjectActions(cs ahpwire.ChatState) []Action {
	ms := make([]*Message, 0, 2*len(cs.Turns))
	for _, t := range cs.Turns {
		ms = append(ms, turnMessages(t)...)
	}
	r := Restore{Chat: cs.Resource, Messages: ms}
	if cs.SteeringMessage != nil {
		r.Steering = &PendingMessage{ID: cs.SteeringMessage.ID, Text: cs.SteeringMessage.Message.Text}
	} else if n := len(cs.SteeringMessages); n > 0 {
		r.Steering = &PendingMessage{ID: cs.SteeringMessages[n-1].ID, Text: cs.SteeringMessages[n-1].Message.Text}
	}
	for _, q := range cs.QueuedMessages {
		r.Queued = append(r.Queued, PendingMessage{ID: q.ID, Text: q.Message.Text})
	}
	out := []Action{r, ActivityChanged{Activity: cs.Activity}}
	if at := cs.ActiveTurn; at != nil {
		started := timestamp(at.StartedAt)
		out = append(out, UserMessage{
			TurnID: at.ID, Text: at.Message.Text, Origin: at.Message.Origin.Kind,
			Attachments: attachments(at.Message.Attachments), StartedAt: started,
		})
		m := &Message{
			ID: at.ID, TurnID: at.ID, Role: RoleAssistant, StartedAt: started,
			Blocks: partBlocks(at.ResponseParts, true), Status: StatusStreaming,
		}
		for _, ir := range cs.InputRequests {
			r := inputRequest(ir, "")
			m.Blocks = append(m.Blocks, &Block{ID: r.ID, Index: len(m.Blocks), Kind: KindInputRequest, Open: true, Input: &r})
		}
		if at.Usage != nil {
			u := usage(*at.Usage)
			m.Usage = &u
		}
		out = append(out, MessageSnapshot{Message: m})
	}
	return out
}

// turnMessages converts a finished turn into its user and assistant
// messages. A 0.5-era Turn.error becomes a trailing error block.
func turnMessages(t ahpwire.Turn) []*Message {
	started := timestamp(t.StartedAt)
	user := &Message{
		ID: UserMessageID(t.ID), TurnID: t.ID, Role: RoleUser, Origin: t.Message.Origin.Kind,
		Attachments: attachments(t.Message.Attachments), StartedAt: started, Status: StatusComplete,
		Blocks: []*Block{{Kind: KindText, text: textbuf.New(t.Message.Text)}},
	}
	if user.Origin == "" {
		user.Origin = "user"
	}
	st := StatusComplete
	switch t.State {
	case ahpwire.TurnCancelled:
		st = StatusCancelled
	case ahpwire.TurnError:
		st = StatusError
	}
	m := &Message{
		ID: t.ID, TurnID: t.ID, Role: RoleAssistant, StartedAt: started,
		Duration: duration(t.Duration), Status: st, Blocks: partBlocks(t.ResponseParts, false),
	}
	if t.Error != nil {
		e := errorInfo(*t.Error, false)
		m.Blocks = append(m.Blocks, &Block{Index: len(m.Blocks), Kind: KindError, Err: &e})
	}
	if t.Usage != nil {
		u := usage(*t.Usage)
		m.Usage = &u
	}
	return []*Message{user, m}
}

// partBlocks converts response parts into blocks; open says whether they
// belong to an active turn (text, thinking, non-terminal tool calls and
// unanswered input requests stay open).
func partBlocks(parts []ahpwire.ResponsePart, open bool) []*Block {
	out := make([]*Block, 0, len(parts))
	for _, p := range parts {
		var b *Block
		if p.Kind == ahpwire.PartError {
			e := ErrorInfo{ErrorType: "unknown", Message: "unknown error"}
			if p.Error != nil {
				e = errorInfo(*p.Error, p.Resumable != nil && *p.Resumable)
			}
			b = &Block{Kind: KindError, Err: &e}
		} else {
			bs, ok := blockStart("", p)
			if !ok {
				continue
			}
			b = newBlock(bs)
			if b == nil {
				continue
			}
		}
		if !open {
			b.Open = false
		}
		b.Index = len(out)
		out = append(out, b)
	}
	return out
}
