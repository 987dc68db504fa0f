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
// invalid or its payload is missing. AHP payloads are shared, not copied.
func newBlock(a BlockStart) *Block {
	b := &Block{ID: a.BlockID, Kind: a.Kind}
	switch a.Kind {
	case KindText, KindThinking, KindSystemNotification:
		b.text = a.text
		if !b.text.Views(a.Text) {
			b.text = textbuf.Of(a.Text) // the action's string, not a copy
		}
		b.Open = a.Kind != KindSystemNotification
		b.Redacted, b.Markdown = a.Redacted && a.Kind == KindThinking, a.Markdown && a.Kind == KindSystemNotification
	case KindToolCall:
		if a.Tool == nil {
			return nil
		}
		b.ID, b.Tool, b.Open = a.Tool.ToolCallID, a.Tool, !a.Tool.IsTerminal()
	case KindInputRequest:
		if a.Input == nil {
			return nil
		}
		b.ID, b.Input, b.Response, b.Open = a.Input.ID, a.Input, a.Response, a.Response == ""
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
		b.Ref = a.Ref
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

// block returns Current when it is named by msgID and has a block i.
func (s State) block(msgID string, i int) (*Message, bool) {
	m, ok := s.current(msgID)
	if !ok || i < 0 || i >= m.Blocks.Len() {
		return nil, false
	}
	return m, true
}

func reduceBlockUpdate(s State, a BlockUpdate) State {
	m, ok := s.block(a.MessageID, a.Index)
	if !ok {
		return ignored(s)
	}
	nb := newBlock(a.BlockStart)
	if nb == nil {
		return ignored(s)
	}
	s.Seq++
	nb.Index, nb.Rev = a.Index, s.Seq
	s.Current = withBlock(m, a.Index, nb, s.Seq)
	return s
}

func reduceBlockDelta(s State, a BlockDelta) State {
	m, ok := s.block(a.MessageID, a.Index)
	if !ok {
		return ignoredDelta(s)
	}
	b := m.Blocks.At(a.Index)
	if b.Kind != a.Kind || (b.Kind != KindText && b.Kind != KindThinking) || !b.Open {
		return ignoredDelta(s)
	}
	if a.Delta == "" {
		return s
	}
	s.Seq++
	nb := cloneBlock(b, s.Seq)
	if a.text.Len() == b.text.Len()+len(a.Delta) {
		nb.text = a.text // the AHP part's buffer: no second copy
	} else {
		nb.text = b.text.Append(a.Delta)
	}
	s.Current = withBlock(m, a.Index, nb, s.Seq)
	return s
}

func reduceBlockEnd(s State, a BlockEnd) State {
	m, ok := s.block(a.MessageID, a.Index)
	if !ok || !m.Blocks.At(a.Index).Open {
		return ignored(s)
	}
	s.Seq++
	nb := cloneBlock(m.Blocks.At(a.Index), s.Seq)
	nb.Open = false
	s.Current = withBlock(m, a.Index, nb, s.Seq)
	return s
}
