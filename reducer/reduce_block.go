package reducer

import "github.com/ahptui/ahptui/internal/textbuf"

func reduceBlockStart(s State, a BlockStart) State {
	m, ok := s.current(a.MessageID)
	if !ok {
		return ignored(s)
	}
	b := newBlock(a)
	if b == nil {
		return ignored(s)
	}
	s.Seq++
	b.Rev = s.Seq
	s.Current = withAppendedBlock(m, b, s.Seq)
	return s
}

// newBlock builds the block a BlockStart creates; nil when the kind is
// invalid or its payload is missing. Payloads are copied.
func newBlock(a BlockStart) *Block {
	b := &Block{ID: a.BlockID, Kind: a.Kind}
	switch a.Kind {
	case KindText, KindThinking:
		b.text, b.Redacted, b.Open = textbuf.New(a.Text), a.Redacted, true
	case KindSystemNotification:
		b.text, b.Markdown = textbuf.New(a.Text), a.Markdown
	case KindToolCall:
		if a.Tool == nil {
			return nil
		}
		t := *a.Tool
		b.ID, b.Tool, b.Open = t.ID, &t, !t.Status.Terminal()
	case KindInputRequest:
		if a.Input == nil {
			return nil
		}
		r := *a.Input
		b.ID, b.Input, b.Open = r.ID, &r, r.Open()
	case KindError:
		if a.Err == nil {
			return nil
		}
		e := *a.Err
		b.Err = &e
	case KindContentRef:
		if a.Ref == nil {
			return nil
		}
		r := *a.Ref
		b.Ref = &r
	case KindUnknown:
		if a.Unknown == nil {
			return nil
		}
		u := *a.Unknown
		b.Unknown = &u
	default:
		return nil
	}
	return b
}

// findTarget returns the index of the first block of m that actions address
// by id (text, thinking, tool call and unknown blocks with an id), as AHP's
// part lookup does; -1 if none.
func findTarget(m *Message, id string) int {
	for i, b := range m.Blocks {
		if b.ID != id {
			continue
		}
		switch b.Kind {
		case KindText, KindThinking, KindToolCall:
			return i
		case KindUnknown:
			if id != "" {
				return i
			}
		}
	}
	return -1
}

func reduceBlockDelta(s State, a BlockDelta) State {
	m, ok := s.current(a.MessageID)
	if !ok {
		return ignoredDelta(s)
	}
	i := findTarget(m, a.BlockID)
	if i < 0 {
		return ignoredDelta(s)
	}
	b := m.Blocks[i]
	if b.Kind != a.Kind || (b.Kind != KindText && b.Kind != KindThinking) || !b.Open {
		return ignoredDelta(s)
	}
	if a.Delta == "" {
		return s
	}
	s.Seq++
	nb := cloneBlock(b, s.Seq)
	nb.text = b.text.Append(a.Delta)
	s.Current = withBlock(m, i, nb, s.Seq)
	return s
}

func reduceBlockEnd(s State, a BlockEnd) State {
	m, ok := s.current(a.MessageID)
	if !ok {
		return ignored(s)
	}
	i := -1
	for j, b := range m.Blocks {
		if b.ID == a.BlockID && b.Open {
			i = j
			break
		}
	}
	if i < 0 {
		return ignored(s)
	}
	s.Seq++
	s.Current = withBlock(m, i, closeBlock(m.Blocks[i], s.Seq), s.Seq)
	return s
}
