package reducer

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

func reduceInputAnswered(s State, a InputAnswered) State {
	m := s.Current
	if m == nil {
		return ignored(s)
	}
	i := findOpenInput(m, a.RequestID)
	if i < 0 {
		return ignored(s)
	}
	old := m.Blocks[i].Input
	answers := make(map[string]InputAnswer, len(old.Answers)+1)
	for k, v := range old.Answers {
		answers[k] = v
	}
	if a.Answer == nil {
		delete(answers, a.QuestionID)
	} else {
		answers[a.QuestionID] = *a.Answer
	}
	if len(answers) == 0 {
		answers = nil
	}
	r := *old
	r.Answers = answers
	s.Seq++
	nb := cloneBlock(m.Blocks[i], s.Seq)
	nb.Input = &r
	s.Current = withBlock(m, i, nb, s.Seq)
	return s
}

func reduceInputCompleted(s State, a InputCompleted) State {
	m := s.Current
	if m == nil {
		return ignored(s)
	}
	i := findOpenInput(m, a.RequestID)
	if i < 0 {
		return ignored(s)
	}
	old := m.Blocks[i].Input
	answers := make(map[string]InputAnswer, len(old.Answers)+len(a.Answers))
	for k, v := range old.Answers {
		answers[k] = v
	}
	for k, v := range a.Answers {
		answers[k] = v
	}
	if len(answers) == 0 {
		answers = nil
	}
	r := *old
	r.Answers, r.Response = answers, a.Response
	s.Seq++
	nb := cloneBlock(m.Blocks[i], s.Seq)
	nb.Input, nb.Open = &r, r.Open()
	s.Current = withBlock(m, i, nb, s.Seq)
	return s
}
