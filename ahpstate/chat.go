package ahpstate

import (
	"github.com/ahptui/ahptui/ahpwire"
)

// Chat applies a chat action to s and returns the new state. Actions of
// other channels, unknown actions and actions that do not apply return s.
func (r Reducer) Chat(s ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	if isNil(a) {
		return s
	}
	switch a := a.(type) {
	case *ahpwire.ChatTurnStarted:
		return r.turnStarted(s, a)
	case *ahpwire.ChatDelta:
		return appendText(s, a.TurnID, a.PartID, ahpwire.PartMarkdown, a.Content)
	case *ahpwire.ChatReasoning:
		return appendText(s, a.TurnID, a.PartID, ahpwire.PartReasoning, a.Content)
	case *ahpwire.ChatResponsePart:
		if !activeIs(&s, a.TurnID) || a.Part.Kind == ahpwire.PartError {
			return s
		}
		return withActiveParts(s, s.ActiveTurn.ResponseParts.Append(a.Part))
	case *ahpwire.ChatUsage:
		if !activeIs(&s, a.TurnID) {
			return s
		}
		at := *s.ActiveTurn
		u := a.Usage
		at.Usage = &u
		s.ActiveTurn = &at
		return s
	case *ahpwire.ChatTurnComplete:
		return r.endTurn(s, a.TurnID, ahpwire.TurnComplete, a.Duration, nil, nil)
	case *ahpwire.ChatTurnCancelled:
		return r.endTurn(s, a.TurnID, ahpwire.TurnCancelled, a.Duration, nil, nil)
	case *ahpwire.ChatError:
		// The 0.5-era shape (error, no part) ends the turn as that era's
		// reducer did: Turn.error set, no part appended.
		if r.Legacy05 || (a.Part == nil && a.Error != nil) {
			info := a.ErrorInfo()
			return r.endTurn(s, a.TurnID, ahpwire.TurnError, a.Duration, nil, &info)
		}
		p := a.ErrorPart()
		return r.endTurn(s, a.TurnID, ahpwire.TurnError, a.Duration, &p, nil)
	case *ahpwire.ChatTurnResume:
		return r.turnResume(s, a.TurnID)
	case *ahpwire.ChatTruncated:
		return r.truncated(s, a.TurnID)
	case *ahpwire.ChatTurnsLoaded:
		return turnsLoaded(s, a)
	case *ahpwire.ChatActivityChanged:
		s.Activity = a.Activity
		return s
	case *ahpwire.ChatToolCallStart, *ahpwire.ChatToolCallDelta, *ahpwire.ChatToolCallReady,
		*ahpwire.ChatToolCallConfirmed, *ahpwire.ChatToolCallComplete, *ahpwire.ChatToolCallResultConfirmed,
		*ahpwire.ChatToolCallContentChanged, *ahpwire.ChatToolCallAuthRequired, *ahpwire.ChatToolCallAuthResolved:
		return r.reduceToolCall(s, a)
	case *ahpwire.ChatInputRequested, *ahpwire.ChatInputAnswerChanged, *ahpwire.ChatInputCompleted:
		if r.Legacy05 {
			return r.reduceLegacyInput(s, a)
		}
		return r.reduceInput(s, a)
	case *ahpwire.ChatPendingMessageSet, *ahpwire.ChatPendingMessageRemoved, *ahpwire.ChatQueuedMessagesReordered,
		*ahpwire.ChatSteeringMessageSet, *ahpwire.ChatSteeringMessageRemoved:
		return reducePending(s, a)
	case *ahpwire.ChatDraftChanged:
		s.Draft = a.Draft
		return s
	case *ahpwire.ChatIsReadChanged:
		s.Status = s.Status.With(ahpwire.StatusIsRead, a.IsRead)
		return s
	case *ahpwire.ChatIsArchivedChanged:
		s.Status = s.Status.With(ahpwire.StatusIsArchived, a.IsArchived)
		return s
	case *ahpwire.ChatWorkingDirectorySet:
		for _, d := range s.WorkingDirectories {
			if d == a.Directory {
				return s
			}
		}
		s.WorkingDirectories = append(clip(s.WorkingDirectories), a.Directory)
		return s
	case *ahpwire.ChatWorkingDirectoryRemoved:
		if dirs, changed := without(s.WorkingDirectories, func(d string) bool { return d == a.Directory }); changed {
			s.WorkingDirectories = dirs
		}
		return s
	case *ahpwire.ChatBackgroundWorkSet:
		s.BackgroundWork = upsert(s.BackgroundWork, a.Work, func(w ahpwire.BackgroundWork) bool { return w.ID == a.Work.ID })
		return s
	case *ahpwire.ChatBackgroundWorkRemoved:
		if ws, changed := without(s.BackgroundWork, func(w ahpwire.BackgroundWork) bool { return w.ID == a.ID }); changed {
			s.BackgroundWork = nilIfEmpty(ws)
		}
		return s
	case *ahpwire.ChatMovableChanged:
		v := a.Movable
		s.Movable = &v
		return s
	case *ahpwire.ChatChangesetsChanged:
		s.Changesets = a.Changesets
		return s
	case *ahpwire.ChatCanvasesChanged:
		s.Canvases = a.Canvases
		return s
	}
	return s
}

// upsert replaces the first element matching with v, or appends v, on a copy.
func upsert[T any](s []T, v T, match func(T) bool) []T {
	for i := range s {
		if match(s[i]) {
			out := append([]T(nil), s...)
			out[i] = v
			return out
		}
	}
	return append(clip(s), v)
}

// activeIs reports whether the active turn exists and has id turnID.
func activeIs(s *ahpwire.ChatState, turnID string) bool {
	return s.ActiveTurn != nil && s.ActiveTurn.ID == turnID
}

// withActiveParts returns s with a copied active turn carrying parts.
func withActiveParts(s ahpwire.ChatState, parts ahpwire.Parts) ahpwire.ChatState {
	at := *s.ActiveTurn
	at.ResponseParts = parts
	s.ActiveTurn = &at
	return s
}

// withActivePart returns s with a copied active turn whose part i is p.
func withActivePart(s ahpwire.ChatState, i int, p ahpwire.ResponsePart) ahpwire.ChatState {
	return withActiveParts(s, s.ActiveTurn.ResponseParts.Set(i, p))
}

func (r Reducer) turnStarted(s ahpwire.ChatState, a *ahpwire.ChatTurnStarted) ahpwire.ChatState {
	if a.TurnID == "" {
		// turnId is required (the host rejects such a dispatch): a turn
		// without one could be addressed by no later action, and a
		// projection of the state would not show it as running.
		return s
	}
	s.ActiveTurn = &ahpwire.ActiveTurn{
		ID: a.TurnID, StartedAt: a.StartedAt, Message: a.Message,
	}
	s.Status = summaryStatus(&s, false).With(ahpwire.StatusIsRead, false)
	switch {
	case a.StartedAt != "":
		s.ModifiedAt = a.StartedAt
	case r.Now != nil:
		s.ModifiedAt = r.stamp()
	}
	if id := a.QueuedMessageID; id != "" {
		if s.SteeringMessage != nil && s.SteeringMessage.ID == id {
			s.SteeringMessage = nil
		}
		match := func(m ahpwire.PendingMessage) bool { return m.ID == id }
		if q, changed := without(s.QueuedMessages, match); changed {
			s.QueuedMessages = nilIfEmpty(q)
		}
		if q, changed := without(s.SteeringMessages, match); changed {
			s.SteeringMessages = nilIfEmpty(q)
		}
	}
	return s
}

// appendText appends content to the first part addressed by partID when it
// has kind want (markdown for chat/delta, reasoning for chat/reasoning).
// The part's text grows in an append-only buffer shared with the previous
// state (ResponsePart.AppendContent) and the part is found by the parts'
// index, so a delta costs amortised O(len(content) + log n) for n parts,
// and earlier states keep their own text.
func appendText(s ahpwire.ChatState, turnID, partID, want, content string) ahpwire.ChatState {
	if !activeIs(&s, turnID) {
		return s
	}
	parts := s.ActiveTurn.ResponseParts
	for i := range parts.Indexes(partID) { // TargetID is ID for markdown and reasoning
		p := parts.At(i)
		switch p.Kind {
		case ahpwire.PartToolCall, ahpwire.PartMarkdown, ahpwire.PartReasoning:
		default:
			continue
		}
		if p.Kind != want {
			return s
		}
		return withActivePart(s, i, p.AppendContent(content))
	}
	return s
}

// endTurn finalizes the active turn. errPart is appended for chat/error
// (≥0.9); legacyErr is recorded as Turn.error (0.5).
func (r Reducer) endTurn(s ahpwire.ChatState, turnID, state string, duration *int64, errPart *ahpwire.ResponsePart, legacyErr *ahpwire.ErrorInfo) ahpwire.ChatState {
	if !activeIs(&s, turnID) {
		return s
	}
	active := s.ActiveTurn
	parts := make([]ahpwire.ResponsePart, 0, active.ResponseParts.Len()+1)
	for _, p := range active.ResponseParts.All() {
		if p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && !p.ToolCall.IsTerminal() {
			tc := *p.ToolCall
			c := skipToolCall(tc)
			p = ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &c}
		}
		parts = append(parts, p)
	}
	if errPart != nil {
		parts = append(parts, *errPart)
	}
	turn := ahpwire.Turn{
		ID: active.ID, StartedAt: active.StartedAt, Message: active.Message,
		ResponseParts: parts, Usage: active.Usage, State: state, Error: legacyErr,
	}
	if duration != nil {
		d := max(0, *duration)
		turn.Duration = &d
	}
	s.Turns = append(clip(s.Turns), turn)
	s.ActiveTurn = nil
	s.InputRequests = nil
	s.ModifiedAt = r.endModifiedAt(s.ModifiedAt, active.StartedAt, duration)
	s.Status = summaryStatus(&s, state == ahpwire.TurnError)
	return s
}

// skipToolCall forces a non-terminal tool call to cancelled/skipped.
func skipToolCall(tc ahpwire.ToolCallState) ahpwire.ToolCallState {
	c := toolBase(tc, nil)
	c.Status = ahpwire.ToolCancelled
	c.Reason = ahpwire.CancelSkipped
	if tc.Status == ahpwire.ToolStreaming {
		im := ahpwire.StringOrMarkdown{}
		if tc.InvocationMessage != nil {
			im = *tc.InvocationMessage
		}
		c.InvocationMessage = &im
	} else {
		c.InvocationMessage = tc.InvocationMessage
		c.ToolInput = tc.ToolInput
	}
	return c
}

// turnResume reopens the latest turn when it ended in a resumable error;
// like every turn transition it moves modifiedAt (from the clock, when the
// reducer has one: the action carries no time).
func (r Reducer) turnResume(s ahpwire.ChatState, turnID string) ahpwire.ChatState {
	if s.ActiveTurn != nil || !Resumable(s, turnID) {
		return s
	}
	last := s.Turns[len(s.Turns)-1]
	s.Turns = clip(s.Turns[:len(s.Turns)-1])
	s.ActiveTurn = &ahpwire.ActiveTurn{
		ID: last.ID, StartedAt: last.StartedAt, Message: last.Message,
		ResponseParts: ahpwire.PartsOf(last.ResponseParts...), Usage: last.Usage,
	}
	s.Status = summaryStatus(&s, false)
	return r.touched(s)
}

// Resumable reports whether turnID is the latest turn, ended with state
// "error" by an error part (not a 0.5-era Turn.error), and its last
// response part is an error part with resumable true.
func Resumable(s ahpwire.ChatState, turnID string) bool {
	if len(s.Turns) == 0 {
		return false
	}
	last := s.Turns[len(s.Turns)-1]
	// A turn ended by a 0.5-era error (Turn.error) did not end on its
	// last part, so an older resumable part does not make it resumable.
	if last.ID != turnID || last.State != ahpwire.TurnError || last.Error != nil || len(last.ResponseParts) == 0 {
		return false
	}
	p := last.ResponseParts[len(last.ResponseParts)-1]
	return p.Kind == ahpwire.PartError && p.Resumable != nil && *p.Resumable
}

func (r Reducer) truncated(s ahpwire.ChatState, turnID string) ahpwire.ChatState {
	if turnID == "" {
		s.Turns = []ahpwire.Turn{}
		s.TurnsNextCursor = ""
	} else {
		idx := -1
		for i, t := range s.Turns {
			if t.ID == turnID {
				idx = i
				break
			}
		}
		if idx < 0 {
			return s
		}
		s.Turns = clip(s.Turns[:idx+1])
	}
	s.ActiveTurn = nil
	s.InputRequests = nil
	s = r.touched(s)
	s.Status = summaryStatus(&s, false)
	return s
}

func turnsLoaded(s ahpwire.ChatState, a *ahpwire.ChatTurnsLoaded) ahpwire.ChatState {
	have := make(map[string]bool, len(s.Turns))
	for _, t := range s.Turns {
		have[t.ID] = true
	}
	turns := make([]ahpwire.Turn, 0, len(a.Turns)+len(s.Turns))
	for _, t := range a.Turns {
		if !have[t.ID] {
			turns = append(turns, t)
		}
	}
	s.Turns = append(turns, s.Turns...)
	s.TurnsNextCursor = a.TurnsNextCursor
	return s
}
