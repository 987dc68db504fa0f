package reducer

// KeepInterrupted carries a reply that a snapshot no longer holds into the
// state that snapshot produced: when prev was streaming a turn and next
// (Reattach of a fresh snapshot, e.g. after the host restarted) has no
// message of that turn at all, what was received stays visible as a
// finished message marked StatusInterrupted with an error block naming
// reason (its user message too, if next lost it). Otherwise next is
// returned unchanged. Messages of prev are shared, never modified.
func KeepInterrupted(prev, next State, reason string) State {
	cur := prev.Current
	if cur == nil || cur.TurnID == "" || hasTurn(next, cur.TurnID) {
		return next
	}
	msgs := make([]*Message, 0, len(next.Messages)+2)
	msgs = append(msgs, next.Messages...)
	if user := findMessage(prev.Messages, UserMessageID(cur.TurnID)); user != nil && findMessage(next.Messages, user.ID) == nil {
		msgs = append(msgs, user)
	}
	next.Seq++
	m := *cur
	m.Status, m.Rev = StatusInterrupted, next.Seq
	for i, b := range cur.Blocks.All() {
		if b.Open {
			c := *b
			c.Open, c.Rev = false, next.Seq
			m.Blocks = m.Blocks.Set(i, &c)
		}
	}
	m.Blocks = m.Blocks.Append(&Block{Index: m.Blocks.Len(), Kind: KindError, Rev: next.Seq,
		Err: &ErrorInfo{ErrorType: "interrupted", Message: reason}})
	msgs = append(msgs, &m)
	next.Messages = msgs[:len(msgs):len(msgs)]
	return next
}

// hasTurn reports whether s shows the assistant message of turn id.
func hasTurn(s State, id string) bool {
	if s.Current != nil && s.Current.TurnID == id {
		return true
	}
	for _, m := range s.Messages {
		if m.TurnID == id && m.Role == RoleAssistant {
			return true
		}
	}
	return false
}

// findMessage returns the message with id in msgs, or nil.
func findMessage(msgs []*Message, id string) *Message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].ID == id {
			return msgs[i]
		}
	}
	return nil
}
