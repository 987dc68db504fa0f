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
func validBlocks(bs []*Block) bool {
	for _, b := range bs {
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
	for _, b := range nm.Blocks {
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
	for _, m := range a.Messages {
		if !validMessage(m) {
			s.Stats.RejectedRestores++
			return s
		}
	}
	s.Seq++
	ms := make([]*Message, len(a.Messages))
	for i, m := range a.Messages {
		ms[i] = finishedCopy(m, s.Seq)
	}
	s = s.setMessages(ms)
	s.Current = nil
	s.Totals = sumUsage(ms)
	if a.Chat != "" {
		s.Chat = a.Chat
	}
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
	// Like AHP, skip turns already finished (the active turn does not count).
	have := make(map[string]bool, len(s.Messages))
	for _, m := range s.Messages {
		if m.Role == RoleAssistant {
			have[m.TurnID] = true
		}
	}
	s.Seq++
	var older []*Message
	for _, m := range a.Messages {
		if m.TurnID == "" || !have[m.TurnID] {
			older = append(older, finishedCopy(m, s.Seq))
		}
	}
	if len(older) == 0 {
		return s
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
	if last.Role != RoleAssistant || last.TurnID != a.TurnID || last.Status != StatusError ||
		len(last.Blocks) == 0 {
		return ignored(s)
	}
	if lb := last.Blocks[len(last.Blocks)-1]; lb.Kind != KindError || !lb.Err.Resumable {
		return ignored(s)
	}
	s.Seq++
	m := restamp(last, s.Seq, StatusStreaming)
	m.Duration = 0
	for _, b := range m.Blocks {
		switch b.Kind {
		case KindText, KindThinking:
			b.Open = true
		case KindInputRequest:
			b.Open = b.Input.Open()
		}
	}
	s = s.truncateMessages(n - 1)
	s.Totals = sumUsage(s.Messages)
	s.Current = m
	return s
}

func reducePendingSet(s State, a PendingMessageSet) State {
	p := a.Message
	switch a.Kind {
	case PendingSteering:
		s.Seq++
		s.Steering = &p
		return s
	case PendingQueued:
		s.Seq++
		q := make([]PendingMessage, len(s.Queued), len(s.Queued)+1)
		copy(q, s.Queued)
		for i := range q {
			if q[i].ID == p.ID {
				q[i] = p
				s.Queued = q
				return s
			}
		}
		s.Queued = append(q, p)
		return s
	}
	return ignored(s)
}

func reducePendingRemoved(s State, a PendingMessageRemoved) State {
	switch a.Kind {
	case PendingSteering:
		if s.Steering == nil || s.Steering.ID != a.ID {
			return ignored(s)
		}
		s.Seq++
		s.Steering = nil
		return s
	case PendingQueued:
		var q []PendingMessage
		for _, p := range s.Queued {
			if p.ID != a.ID {
				q = append(q, p)
			}
		}
		if len(q) == len(s.Queued) {
			return ignored(s)
		}
		s.Seq++
		s.Queued = q
		return s
	}
	return ignored(s)
}

func reduceQueuedReordered(s State, a QueuedReordered) State {
	if len(s.Queued) == 0 {
		return ignored(s)
	}
	byID := make(map[string]int, len(s.Queued))
	for i, p := range s.Queued {
		if _, dup := byID[p.ID]; !dup {
			byID[p.ID] = i
		}
	}
	used := make([]bool, len(s.Queued))
	q := make([]PendingMessage, 0, len(s.Queued))
	for _, id := range a.Order {
		if i, ok := byID[id]; ok && !used[i] {
			used[i] = true
			q = append(q, s.Queued[i])
		}
	}
	for i, p := range s.Queued {
		if !used[i] {
			q = append(q, p)
		}
	}
	s.Seq++
	s.Queued = q
	return s
}
