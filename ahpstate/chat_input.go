package ahpstate

import (
	"maps"

	"github.com/ahptui/ahptui/ahpwire"
)

// findOpenInput returns the index of the first unresolved inputRequest
// part with request id, or -1.
func findOpenInput(parts ahpwire.Parts, id string) int {
	for i := range parts.Indexes(id) {
		if p := parts.At(i); p.Kind == ahpwire.PartInputRequest && p.Response == "" && p.Request != nil && p.Request.ID == id {
			return i
		}
	}
	return -1
}

// OpenInputRequest returns the unresolved input request id in the active
// turn (or, for 0.5-era state, in ChatState.inputRequests).
func OpenInputRequest(s ahpwire.ChatState, id string) (ahpwire.ChatInputRequest, bool) {
	if s.ActiveTurn != nil {
		if i := findOpenInput(s.ActiveTurn.ResponseParts, id); i >= 0 {
			return *s.ActiveTurn.ResponseParts.At(i).Request, true
		}
	}
	for _, r := range s.InputRequests {
		if r.ID == id {
			return r, true
		}
	}
	return ahpwire.ChatInputRequest{}, false
}

// editAnswers returns a copy of answers edited by fn, nil when it ends up
// empty; answers itself is never changed.
func editAnswers(answers map[string]ahpwire.ChatInputAnswer, fn func(map[string]ahpwire.ChatInputAnswer)) map[string]ahpwire.ChatInputAnswer {
	out := maps.Clone(answers)
	if out == nil {
		out = map[string]ahpwire.ChatInputAnswer{}
	}
	fn(out)
	if len(out) == 0 {
		return nil
	}
	return out
}

// withAnswer returns a copy of answers with questionID set (nil deletes);
// an empty result is nil.
func withAnswer(answers map[string]ahpwire.ChatInputAnswer, questionID string, ans *ahpwire.ChatInputAnswer) map[string]ahpwire.ChatInputAnswer {
	return editAnswers(answers, func(out map[string]ahpwire.ChatInputAnswer) {
		if ans == nil {
			delete(out, questionID)
		} else {
			out[questionID] = *ans
		}
	})
}

// mergeAnswers returns base overlaid with extra (nil if empty).
func mergeAnswers(base, extra map[string]ahpwire.ChatInputAnswer) map[string]ahpwire.ChatInputAnswer {
	return editAnswers(base, func(out map[string]ahpwire.ChatInputAnswer) { maps.Copy(out, extra) })
}

// reduceInput implements the ≥0.6 model: input requests are inputRequest
// response parts of the active turn.
func (r Reducer) reduceInput(s ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	if s.ActiveTurn == nil {
		return s
	}
	parts := s.ActiveTurn.ResponseParts
	switch a := a.(type) {
	case *ahpwire.ChatInputRequested:
		req := a.Request
		var out ahpwire.Parts
		if i := findOpenInput(parts, req.ID); i >= 0 {
			if req.Answers == nil {
				req.Answers = parts.At(i).Request.Answers
			}
			out = parts.Set(i, ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &req})
		} else {
			out = parts.Append(ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &req})
		}
		s = withActiveParts(s, out)
		s.Status = summaryStatus(&s, false).With(ahpwire.StatusIsRead, false)
	case *ahpwire.ChatInputAnswerChanged:
		i := findOpenInput(parts, a.RequestID)
		if i < 0 {
			return s
		}
		req := *parts.At(i).Request
		req.Answers = withAnswer(req.Answers, a.QuestionID, a.Answer)
		s = withActivePart(s, i, ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &req})
	case *ahpwire.ChatInputCompleted:
		i := findOpenInput(parts, a.RequestID)
		if i < 0 {
			return s
		}
		req := *parts.At(i).Request
		req.Answers = mergeAnswers(req.Answers, a.Answers)
		s = withActivePart(s, i, ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &req, Response: a.Response})
		s.Status = summaryStatus(&s, false)
	default:
		return s
	}
	return r.touched(s)
}

// reduceLegacyInput implements the 0.5 model: ChatState.inputRequests.
func (r Reducer) reduceLegacyInput(s ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	idx := func(id string) int {
		for i, q := range s.InputRequests {
			if q.ID == id {
				return i
			}
		}
		return -1
	}
	switch a := a.(type) {
	case *ahpwire.ChatInputRequested:
		req := a.Request
		if i := idx(req.ID); i >= 0 {
			if req.Answers == nil {
				req.Answers = s.InputRequests[i].Answers
			}
			out := append([]ahpwire.ChatInputRequest(nil), s.InputRequests...)
			out[i] = req
			s.InputRequests = out
		} else {
			s.InputRequests = append(clip(s.InputRequests), req)
		}
		s.Status = summaryStatus(&s, false).With(ahpwire.StatusIsRead, false)
	case *ahpwire.ChatInputAnswerChanged:
		i := idx(a.RequestID)
		if i < 0 {
			return s
		}
		out := append([]ahpwire.ChatInputRequest(nil), s.InputRequests...)
		out[i].Answers = withAnswer(out[i].Answers, a.QuestionID, a.Answer)
		s.InputRequests = out
	case *ahpwire.ChatInputCompleted:
		if idx(a.RequestID) < 0 {
			return s
		}
		out, _ := without(s.InputRequests, func(q ahpwire.ChatInputRequest) bool { return q.ID == a.RequestID })
		s.InputRequests = nilIfEmpty(out)
		s.Status = summaryStatus(&s, false)
	default:
		return s
	}
	return r.touched(s)
}

// reducePending handles steering/queued messages.
func reducePending(s ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	switch a := a.(type) {
	case *ahpwire.ChatPendingMessageSet:
		e := ahpwire.PendingMessage{ID: a.ID, Message: a.Message}
		if a.Kind == ahpwire.PendingSteering {
			s.SteeringMessage = &e
			return s
		}
		s.QueuedMessages = upsert(s.QueuedMessages, e, func(m ahpwire.PendingMessage) bool { return m.ID == a.ID })
	case *ahpwire.ChatPendingMessageRemoved:
		if a.Kind == ahpwire.PendingSteering {
			if s.SteeringMessage != nil && s.SteeringMessage.ID == a.ID {
				s.SteeringMessage = nil
			}
			return s
		}
		if q, changed := without(s.QueuedMessages, func(m ahpwire.PendingMessage) bool { return m.ID == a.ID }); changed {
			s.QueuedMessages = nilIfEmpty(q)
		}
	case *ahpwire.ChatQueuedMessagesReordered:
		if s.QueuedMessages == nil {
			return s
		}
		byID := make(map[string]ahpwire.PendingMessage, len(s.QueuedMessages))
		for _, m := range s.QueuedMessages {
			byID[m.ID] = m
		}
		placed := map[string]bool{}
		out := make([]ahpwire.PendingMessage, 0, len(s.QueuedMessages))
		for _, id := range a.Order {
			if m, ok := byID[id]; ok && !placed[id] {
				placed[id] = true
				out = append(out, m)
			}
		}
		for _, m := range s.QueuedMessages {
			if !placed[m.ID] {
				out = append(out, m)
			}
		}
		s.QueuedMessages = out
	case *ahpwire.ChatSteeringMessageSet:
		e := a.SteeringMessage
		s.SteeringMessages = upsert(s.SteeringMessages, e, func(m ahpwire.PendingMessage) bool { return m.ID == e.ID })
	case *ahpwire.ChatSteeringMessageRemoved:
		if q, changed := without(s.SteeringMessages, func(m ahpwire.PendingMessage) bool { return m.ID == a.ID }); changed {
			s.SteeringMessages = nilIfEmpty(q)
		}
	}
	return s
}

// LiftLegacyInputs returns s with the open input requests of a 0.5-era
// state (ChatState.inputRequests) moved into the active turn as open
// inputRequest response parts, where every ≥0.6 action and view looks for
// them; a request already open as a part keeps that part (its draft
// answers are merged under the part's). Without an active turn, or
// without legacy requests, s is returned unchanged. Both the snapshot
// path (reducer.Project) and the incremental path (reducer.Apply) read a
// chat through this, so they show the same input blocks and drafts.
func LiftLegacyInputs(s ahpwire.ChatState) ahpwire.ChatState {
	if len(s.InputRequests) == 0 || s.ActiveTurn == nil {
		return s
	}
	parts := s.ActiveTurn.ResponseParts
	for _, req := range s.InputRequests {
		if i := findOpenInput(parts, req.ID); i >= 0 {
			p := parts.At(i)
			cur := *p.Request
			cur.Answers = mergeAnswers(req.Answers, cur.Answers)
			p.Request = &cur
			parts = parts.Set(i, p)
			continue
		}
		r := req
		parts = parts.Append(ahpwire.ResponsePart{Kind: ahpwire.PartInputRequest, Request: &r})
	}
	s = withActiveParts(s, parts)
	s.InputRequests = nil
	return s
}
