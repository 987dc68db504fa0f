package reducer

// validMessage reports whether m is a well-formed finished message.
func validMessage(m *Message) bool {
	if m == nil || m.ID == "" || (m.Role != RoleUser && m.Role != RoleAssistant) ||
		m.Status == StatusStreaming || m.Status > StatusInterrupted {
		return false
	}
	return validBlocks(m.Blocks)
}

// validBlocks reports whether every block has the payload its kind needs.
func validBlocks(bs Blocks) bool {
	for _, b := range bs.All() {
		if b == nil {
			return false
		}
		switch b.Kind {
		case KindText, KindThinking, KindSystemNotification:
		case KindToolCall:
			if b.Tool == nil {
				return false
			}
		case KindError:
			if b.Err == nil {
				return false
			}
		case KindInputRequest:
			if b.Input == nil {
				return false
			}
		case KindContentRef:
			if b.Ref == nil {
				return false
			}
		case KindUnknown:
			if b.Unknown == nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// finishedCopy returns m restamped as a finished message with every block
// closed.
func finishedCopy(m *Message, rev uint64) *Message {
	nm := restamp(m, rev, m.Status)
	for _, b := range nm.Blocks.All() {
		b.Open = false
	}
	return nm
}

// sumUsage returns the usage total over ms.
func sumUsage(ms []*Message) Usage {
	var u Usage
	for _, m := range ms {
		if m.Usage != nil {
			u = u.add(*m.Usage)
		}
	}
	return u
}

func reduceRestore(s State, a Restore) State {
	return restore(s, a, false)
}

// restore applies a. With fresh, a's messages were just built by
// turnsMessages (finished, blocks closed and indexed, held by no one
// else): they are stamped in place instead of copied.
func restore(s State, a Restore, fresh bool) State {
	for _, m := range a.Messages {
		if !validMessage(m) {
			s.Stats.RejectedRestores++
			return s
		}
	}
	s.Seq++
	ms := a.Messages
	if fresh {
		for _, m := range ms {
			m.Rev = s.Seq
			for _, b := range m.Blocks.All() {
				b.Rev = s.Seq
			}
		}
	} else {
		ms = make([]*Message, len(a.Messages))
		for i, m := range a.Messages {
			ms[i] = finishedCopy(m, s.Seq)
		}
	}
	s = s.setMessages(ms)
	s.Current = nil
	s.Totals = sumUsage(ms)
	s.Steering = nil
	if a.Steering != nil {
		p := *a.Steering
		s.Steering = &p
	}
	s.Queued = append([]PendingMessage(nil), a.Queued...)
	if len(s.Queued) == 0 {
		s.Queued = nil
	}
	return s
}

func reduceHistoryLoaded(s State, a HistoryLoaded) State {
	for _, m := range a.Messages {
		if !validMessage(m) {
			s.Stats.RejectedRestores++
			return s
		}
	}
	if len(a.Messages) == 0 {
		return s
	}
	s.Seq++
	older := make([]*Message, len(a.Messages), len(a.Messages)+len(s.Messages))
	for i, m := range a.Messages {
		older[i] = finishedCopy(m, s.Seq)
	}
	ms := append(older, s.Messages...)
	s = s.setMessages(ms)
	s.Totals = sumUsage(ms)
	return s
}

func reduceTruncate(s State, a Truncate) State {
	keep := 0
	switch {
	case a.All:
	case a.ActiveOnly:
		for i := len(s.Messages) - 1; i >= 0; i-- {
			if s.Messages[i].Role == RoleAssistant {
				keep = i + 1
				break
			}
		}
	default:
		keep = -1
		for i, m := range s.Messages {
			if m.TurnID == a.KeepThroughTurn && m.Role == RoleAssistant {
				keep = i + 1
				break
			}
		}
		if keep < 0 {
			return ignored(s)
		}
	}
	s.Seq++
	s.Current = nil
	s = s.truncateMessages(keep)
	s.Totals = sumUsage(s.Messages)
	return s
}

func reduceMessageResume(s State, a MessageResume) State {
	n := len(s.Messages)
	if s.Current != nil || n == 0 {
		return ignored(s)
	}
	last := s.Messages[n-1]
	if last.Role != RoleAssistant || last.TurnID != a.TurnID {
		return ignored(s)
	}
	s.Seq++
	m := restamp(last, s.Seq, StatusStreaming)
	m.Duration = 0
	for _, b := range m.Blocks.All() {
		switch b.Kind {
		case KindText, KindThinking:
			b.Open = true
		case KindToolCall:
			b.Open = !b.Tool.IsTerminal()
		case KindInputRequest:
			b.Open = b.InputOpen()
		case KindError:
			markResumed(b) // the reply goes on below it
		}
	}
	s = s.truncateMessages(n - 1)
	s.Totals = sumUsage(s.Messages)
	s.Current = m
	return s
}

func reducePending(s State, a PendingChanged) State {
	s.Seq++
	s.Steering = nil
	if a.Steering != nil {
		p := *a.Steering
		s.Steering = &p
	}
	s.Queued = nil
	if len(a.Queued) > 0 {
		s.Queued = append([]PendingMessage(nil), a.Queued...)
	}
	return s
}
