package reducer

import "maps"

// findOpenInput returns the index of Current's open input request with id.
func findOpenInput(m *Message, id string) int {
	for i, b := range m.Blocks {
		if b.Kind == KindInputRequest && b.Input.ID == id && b.Input.Open() {
			return i
		}
	}
	return -1
}

func reduceInputRequested(s State, a InputRequested) State {
	m := s.Current
	if m == nil {
		return ignored(s)
	}
	r := a.Request
	r.Response = ""
	s.Seq++
	if i := findOpenInput(m, r.ID); i >= 0 {
		if r.Answers == nil {
			r.Answers = m.Blocks[i].Input.Answers
		}
		nb := cloneBlock(m.Blocks[i], s.Seq)
		nb.Input = &r
		s.Current = withBlock(m, i, nb, s.Seq)
		return s
	}
	b := &Block{ID: r.ID, Kind: KindInputRequest, Open: true, Rev: s.Seq, Input: &r}
	s.Current = withAppendedBlock(m, b, s.Seq)
	return s
}

// updateOpenInput revises the block of Current's open input request id:
// fn edits a copy of the request and the block's new revision. Without such
// a request the action is ignored.
func updateOpenInput(s State, id string, fn func(r *InputRequest, nb *Block)) State {
	m := s.Current
	if m == nil {
		return ignored(s)
	}
	i := findOpenInput(m, id)
	if i < 0 {
		return ignored(s)
	}
	r := *m.Blocks[i].Input
	s.Seq++
	nb := cloneBlock(m.Blocks[i], s.Seq)
	fn(&r, nb)
	nb.Input = &r
	s.Current = withBlock(m, i, nb, s.Seq)
	return s
}

// editAnswers returns a copy of old edited by fn, or nil when it ends up
// empty; old itself is never changed.
func editAnswers(old map[string]InputAnswer, fn func(map[string]InputAnswer)) map[string]InputAnswer {
	answers := maps.Clone(old)
	if answers == nil {
		answers = map[string]InputAnswer{}
	}
	fn(answers)
	if len(answers) == 0 {
		return nil
	}
	return answers
}

func reduceInputAnswered(s State, a InputAnswered) State {
	return updateOpenInput(s, a.RequestID, func(r *InputRequest, _ *Block) {
		r.Answers = editAnswers(r.Answers, func(answers map[string]InputAnswer) {
			if a.Answer == nil {
				delete(answers, a.QuestionID)
			} else {
				answers[a.QuestionID] = *a.Answer
			}
		})
	})
}

func reduceInputCompleted(s State, a InputCompleted) State {
	return updateOpenInput(s, a.RequestID, func(r *InputRequest, nb *Block) {
		r.Answers = editAnswers(r.Answers, func(answers map[string]InputAnswer) {
			maps.Copy(answers, a.Answers)
		})
		r.Response = a.Response
		nb.Open = r.Open()
	})
}
