package reducer

// Reduce applies one lifecycle action to s and returns the new state. It is
// pure and deterministic: s and everything reachable from it are left
// unchanged (finished messages and untouched blocks are shared with the
// result), and the result depends only on s and a. Actions that do not
// apply are ignored and counted in Stats. Reduce does not panic for any
// action value applied to a state built by Reduce, Project or Reattach
// (payloads of adopted messages are validated); hand-built states must
// follow the same shape rules (non-nil blocks with their kind's payload).
func Reduce(s State, a Action) State {
	switch a := a.(type) {
	case MessageStart:
		return reduceMessageStart(s, a)
	case BlockStart:
		return reduceBlockStart(s, a)
	case BlockDelta:
		return reduceBlockDelta(s, a)
	case BlockEnd:
		return reduceBlockEnd(s, a)
	case MessageEnd:
		return reduceMessageEnd(s, a)
	case MessageSnapshot:
		return reduceMessageSnapshot(s, a)
	case SessionEnd:
		return reduceSessionEnd(s, a)
	case UserMessage:
		return reduceUserMessage(s, a)
	case Error:
		return reduceError(s, a)
	case UsageChanged:
		return reduceUsage(s, a)
	case BlockUpdate:
		return reduceBlockUpdate(s, a)
	case Restore:
		return reduceRestore(s, a)
	case HistoryLoaded:
		return reduceHistoryLoaded(s, a)
	case Truncate:
		return reduceTruncate(s, a)
	case MessageResume:
		return reduceMessageResume(s, a)
	case PendingChanged:
		return reducePending(s, a)
	case MessageReplaced:
		return reduceMessageReplaced(s, a)
	case ActivityChanged:
		if s.Activity == a.Activity {
			return s
		}
		s.Seq++
		s.Activity = a.Activity
		return s
	}
	// nil or a pointer to an action: not part of the set.
	s.Stats.IgnoredActions++
	return s
}

// ReduceAll applies actions in order.
func ReduceAll(s State, actions ...Action) State {
	for _, a := range actions {
		s = Reduce(s, a)
	}
	return s
}

// ignored returns s with the ignored-action counter increased.
func ignored(s State) State {
	s.Stats.IgnoredActions++
	return s
}

// ignoredDelta returns s with the ignored-delta counter increased.
func ignoredDelta(s State) State {
	s.Stats.IgnoredDeltas++
	return s
}

// current returns Current when it is named by id.
func (s State) current(id string) (*Message, bool) {
	if s.Current == nil || s.Current.ID != id {
		return nil, false
	}
	return s.Current, true
}

// cloneMessage returns a shallow copy of m stamped with rev.
func cloneMessage(m *Message, rev uint64) *Message {
	nm := *m
	nm.Rev = rev
	return &nm
}

// withBlock returns a copy of m with block i replaced by b.
func withBlock(m *Message, i int, b *Block, rev uint64) *Message {
	nm := cloneMessage(m, rev)
	nm.Blocks = m.Blocks.Set(i, b)
	return nm
}

// withAppendedBlock returns a copy of m with b appended (its Index set).
func withAppendedBlock(m *Message, b *Block, rev uint64) *Message {
	nm := cloneMessage(m, rev)
	b.Index = m.Blocks.Len()
	nm.Blocks = m.Blocks.Append(b)
	return nm
}

// cloneBlock returns a shallow copy of b stamped with rev.
func cloneBlock(b *Block, rev uint64) *Block {
	nb := *b
	nb.Rev = rev
	return &nb
}
