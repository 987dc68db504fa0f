package reducer

import (
	"time"

	"github.com/ahptui/ahptui/internal/textbuf"
)

func reduceMessageStart(s State, a MessageStart) State {
	if s.Current != nil {
		s = finalize(s, StatusInterrupted, 0, true)
	}
	s.Seq++
	s.Current = &Message{
		ID: a.ID, TurnID: a.TurnID, Role: RoleAssistant,
		StartedAt: a.StartedAt, Status: StatusStreaming, Rev: s.Seq,
	}
	return s
}

func reduceMessageEnd(s State, a MessageEnd) State {
	if _, ok := s.current(a.MessageID); !ok {
		return ignored(s)
	}
	st := a.Status
	if st == StatusStreaming || st > StatusInterrupted {
		st = StatusComplete
	}
	return finalize(s, st, a.Duration, false)
}

// finalize closes every open block of Current and moves it to Messages.
// forced marks a finalisation without MessageEnd.
func finalize(s State, status MessageStatus, d time.Duration, forced bool) State {
	s.Seq++
	m := cloneMessage(s.Current, s.Seq)
	for i, b := range s.Current.Blocks.All() {
		if b.Open {
			m.Blocks = m.Blocks.Set(i, closeBlock(b, s.Seq))
			s.Stats.ForcedBlockEnds++
		}
	}
	if d < 0 {
		d = 0
	}
	m.Status, m.Duration = status, d
	if forced {
		s.Stats.ForcedFinalizations++
	}
	if m.Usage != nil {
		s.Totals = s.Totals.add(*m.Usage)
	}
	s.Current = nil
	return s.appendMessage(m)
}

// closeBlock returns a closed copy of b; its payload is kept as it is.
func closeBlock(b *Block, rev uint64) *Block {
	nb := cloneBlock(b, rev)
	nb.Open = false
	return nb
}

func reduceMessageSnapshot(s State, a MessageSnapshot) State {
	m := a.Message
	if m == nil || m.Role != RoleAssistant || m.ID == "" || !validBlocks(m.Blocks) {
		return ignored(s)
	}
	s.Seq++
	s.Current = restamp(m, s.Seq, StatusStreaming)
	return s
}

// restamp returns a copy of m with the given status whose message and
// blocks carry rev and consecutive indexes.
func restamp(m *Message, rev uint64, status MessageStatus) *Message {
	nm := cloneMessage(m, rev)
	nm.Status = status
	bs := make([]*Block, m.Blocks.Len())
	for i, b := range m.Blocks.All() {
		nb := cloneBlock(b, rev)
		nb.Index = i
		bs[i] = nb
	}
	nm.Blocks = BlocksOf(bs...)
	return nm
}

func reduceSessionEnd(s State, a SessionEnd) State {
	if s.Current != nil {
		s = finalize(s, StatusInterrupted, 0, true)
	}
	s.Seq++
	s.Ended, s.EndReason, s.Failed = true, a.Reason, a.Failed
	if a.Error != nil {
		e := *a.Error
		s.LastError = &e
	}
	return s
}

func reduceUserMessage(s State, a UserMessage) State {
	id := a.ID
	if id == "" {
		id = UserMessageID(a.TurnID)
	}
	origin := a.Origin
	if origin == "" {
		origin = "user"
	}
	s.Seq++
	b := &Block{Kind: KindText, text: textbuf.Of(a.Text), Rev: s.Seq}
	m := &Message{
		ID: id, TurnID: a.TurnID, Role: RoleUser, Origin: origin,
		Attachments: a.Attachments, Blocks: BlocksOf(b),
		StartedAt: a.StartedAt, Status: StatusComplete, Rev: s.Seq,
	}
	return s.appendMessage(m)
}

func reduceError(s State, a Error) State {
	info := a.Info
	if m, ok := s.current(a.MessageID); ok && a.MessageID != "" {
		s.Seq++
		b := &Block{Kind: KindError, Err: &info, Rev: s.Seq}
		s.Current = withAppendedBlock(m, b, s.Seq)
		return s
	}
	s.Seq++
	s.LastError = &info
	return s
}

func reduceUsage(s State, a UsageChanged) State {
	m, ok := s.current(a.MessageID)
	if !ok {
		return ignored(s)
	}
	s.Seq++
	nm := cloneMessage(m, s.Seq)
	u := a.Usage
	nm.Usage = &u
	s.Current = nm
	return s
}
