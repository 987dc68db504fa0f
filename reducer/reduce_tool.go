package reducer

import "encoding/json"

// toolBase returns a new ToolCall holding only tc's identity fields (AHP's
// tcBase), with meta replacing tc's meta when non-nil.
func toolBase(tc *ToolCall, meta map[string]json.RawMessage) *ToolCall {
	if meta == nil {
		meta = tc.Meta
	}
	return &ToolCall{
		ID: tc.ID, ToolName: tc.ToolName, DisplayName: tc.DisplayName,
		Intention: tc.Intention, Contributor: tc.Contributor, Meta: meta,
	}
}

// carryRunning returns toolBase(tc, meta) with the fields a running tool
// call keeps while it enters and leaves auth-required.
func carryRunning(tc *ToolCall, meta map[string]json.RawMessage) *ToolCall {
	nt := toolBase(tc, meta)
	nt.InvocationMessage, nt.Input = tc.InvocationMessage, tc.Input
	nt.Confirmed, nt.SelectedOption, nt.Content = tc.Confirmed, tc.SelectedOption, tc.Content
	return nt
}

// findTool returns Current (when named by msgID) and the index of the tool
// call block with the given id.
func (s State) findTool(msgID, toolID string) (*Message, int) {
	m, ok := s.current(msgID)
	if !ok {
		return nil, -1
	}
	for i, b := range m.Blocks {
		if b.Kind == KindToolCall && b.ID == toolID {
			return m, i
		}
	}
	return m, -1
}

// fromStatus adapts f for updateTool: f applies only to a tool call in
// status from (otherwise the transition does not apply).
func fromStatus(from ToolStatus, f func(*ToolCall) *ToolCall) func(*ToolCall) *ToolCall {
	return func(tc *ToolCall) *ToolCall {
		if tc.Status != from {
			return nil
		}
		return f(tc)
	}
}

// updateTool applies f to the tool call of Current named by msgID/toolID. f
// returns nil when the transition does not apply; then the action is
// ignored and counted (as a delta when delta is set).
func updateTool(s State, msgID, toolID string, delta bool, f func(*ToolCall) *ToolCall) State {
	m, i := s.findTool(msgID, toolID)
	var nt *ToolCall
	if i >= 0 {
		nt = f(m.Blocks[i].Tool)
	}
	if nt == nil {
		if delta {
			return ignoredDelta(s)
		}
		return ignored(s)
	}
	s.Seq++
	nb := cloneBlock(m.Blocks[i], s.Seq)
	nb.Tool = nt
	nb.Open = !nt.Status.Terminal()
	s.Current = withBlock(m, i, nb, s.Seq)
	return s
}

func reduceToolStart(s State, a ToolCallStart) State {
	m, ok := s.current(a.MessageID)
	if !ok {
		return ignored(s)
	}
	s.Seq++
	tc := &ToolCall{
		ID: a.ToolCallID, Status: ToolStreaming, ToolName: a.ToolName,
		DisplayName: a.DisplayName, Intention: a.Intention,
		Contributor: a.Contributor, Meta: a.Meta,
	}
	b := &Block{ID: a.ToolCallID, Kind: KindToolCall, Open: true, Rev: s.Seq, Tool: tc}
	s.Current = withAppendedBlock(m, b, s.Seq)
	return s
}

func reduceToolDelta(s State, a ToolCallDelta) State {
	return updateTool(s, a.MessageID, a.ToolCallID, true, fromStatus(ToolStreaming, func(tc *ToolCall) *ToolCall {
		nt := *tc
		if a.Meta != nil {
			nt.Meta = a.Meta
		}
		nt.partial = tc.partial.Append(a.Content)
		if a.InvocationMessage != nil {
			im := *a.InvocationMessage
			nt.InvocationMessage = &im
		}
		return &nt
	}))
}

func reduceToolReady(s State, a ToolCallReady) State {
	return updateTool(s, a.MessageID, a.ToolCallID, false, func(tc *ToolCall) *ToolCall {
		switch tc.Status {
		case ToolStreaming, ToolRunning, ToolPendingConfirmation:
		default:
			return nil
		}
		nt := toolBase(tc, a.Meta)
		if a.Intention != "" {
			nt.Intention = a.Intention
		}
		if a.Contributor != nil {
			c := *a.Contributor
			nt.Contributor = &c
		}
		im := a.InvocationMessage
		nt.InvocationMessage = &im
		if a.Confirmed != "" {
			nt.Status, nt.Input, nt.Confirmed = ToolRunning, a.Input, a.Confirmed
			return nt
		}
		var prev ToolCall
		if tc.Status == ToolPendingConfirmation {
			prev = *tc
		}
		nt.Status = ToolPendingConfirmation
		nt.Input = orPtr(a.Input, prev.Input)
		nt.ConfirmationTitle = orPtr(a.ConfirmationTitle, prev.ConfirmationTitle)
		nt.Risk = orPtr(a.Risk, prev.Risk)
		nt.Editable = orPtr(a.Editable, prev.Editable)
		nt.Edits = a.Edits
		if a.Edits == nil {
			nt.Edits = prev.Edits
		}
		nt.Options = a.Options
		if a.Options == nil {
			nt.Options = prev.Options
		}
		return nt
	})
}

// orPtr returns a if non-nil, else b.
func orPtr[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// selectOption resolves an option id against options (nil if absent).
func selectOption(options []ConfirmOption, id string) *ConfirmOption {
	if id == "" {
		return nil
	}
	for i := range options {
		if options[i].ID == id {
			o := options[i]
			return &o
		}
	}
	return nil
}

func reduceToolConfirmed(s State, a ToolCallConfirmed) State {
	return updateTool(s, a.MessageID, a.ToolCallID, false, fromStatus(ToolPendingConfirmation, func(tc *ToolCall) *ToolCall {
		nt := toolBase(tc, a.Meta)
		nt.InvocationMessage = tc.InvocationMessage
		nt.SelectedOption = selectOption(tc.Options, a.SelectedOptionID)
		if a.Approved {
			nt.Status, nt.Confirmed = ToolRunning, a.Confirmed
			nt.Input = orPtr(a.EditedInput, tc.Input)
			return nt
		}
		nt.Status, nt.Input = ToolCancelled, tc.Input
		nt.CancelReason, nt.ReasonMessage, nt.UserSuggestion = a.Reason, a.ReasonMessage, a.UserSuggestion
		return nt
	}))
}

func reduceToolResult(s State, a ToolResult) State {
	if a.MessageID == "" {
		return reduceLooseToolResult(s, a)
	}
	return updateTool(s, a.MessageID, a.ToolCallID, false, func(tc *ToolCall) *ToolCall {
		return completeTool(tc, a)
	})
}

// completeTool applies AHP's toolCallComplete transition; nil if it does
// not apply.
func completeTool(tc *ToolCall, a ToolResult) *ToolCall {
	switch tc.Status {
	case ToolRunning, ToolPendingConfirmation:
	case ToolAuthRequired:
		if a.Result.Success {
			return nil // only a failed result may end an auth-required call
		}
	default:
		return nil
	}
	nt := toolBase(tc, a.Meta)
	nt.InvocationMessage, nt.Input = tc.InvocationMessage, tc.Input
	if tc.Status == ToolPendingConfirmation {
		nt.Confirmed = ConfirmedNotNeeded
	} else {
		nt.Confirmed, nt.SelectedOption = tc.Confirmed, tc.SelectedOption
	}
	nt.Content = a.Content
	if nt.Content == nil && tc.Status == ToolAuthRequired {
		nt.Content = tc.Content
	}
	r := a.Result
	nt.Result = &r
	nt.Status = ToolCompleted
	if a.RequiresResultConfirmation && tc.Status != ToolAuthRequired {
		nt.Status = ToolPendingResultConfirmation
	}
	return nt
}

// reduceLooseToolResult targets the newest tool call with the id in Current
// or, failing that, in the finished messages (seed TOOL_RESULT semantics).
func reduceLooseToolResult(s State, a ToolResult) State {
	if s.Current != nil {
		if _, i := s.findTool(s.Current.ID, a.ToolCallID); i >= 0 {
			a.MessageID = s.Current.ID
			return reduceToolResult(s, a)
		}
	}
	for mi := len(s.Messages) - 1; mi >= 0; mi-- {
		m := s.Messages[mi]
		for bi := len(m.Blocks) - 1; bi >= 0; bi-- {
			b := m.Blocks[bi]
			if b.Kind != KindToolCall || b.ID != a.ToolCallID {
				continue
			}
			nt := completeTool(b.Tool, a)
			if nt == nil {
				return ignored(s)
			}
			s.Seq++
			nb := cloneBlock(b, s.Seq)
			nb.Tool = nt
			nb.Open = false
			ms := make([]*Message, len(s.Messages))
			copy(ms, s.Messages)
			ms[mi] = withBlock(m, bi, nb, s.Seq)
			return s.setMessages(ms)
		}
	}
	return ignored(s)
}

func reduceToolResultConfirmed(s State, a ToolCallResultConfirmed) State {
	return updateTool(s, a.MessageID, a.ToolCallID, false, fromStatus(ToolPendingResultConfirmation, func(tc *ToolCall) *ToolCall {
		nt := toolBase(tc, a.Meta)
		nt.InvocationMessage, nt.Input, nt.SelectedOption = tc.InvocationMessage, tc.Input, tc.SelectedOption
		if a.Approved {
			nt.Status, nt.Confirmed = ToolCompleted, tc.Confirmed
			nt.Content, nt.Result = tc.Content, tc.Result
			return nt
		}
		nt.Status, nt.CancelReason = ToolCancelled, CancelResultDenied
		return nt
	}))
}

func reduceToolContent(s State, a ToolCallContentChanged) State {
	return updateTool(s, a.MessageID, a.ToolCallID, false, fromStatus(ToolRunning, func(tc *ToolCall) *ToolCall {
		nt := *tc
		if a.Meta != nil {
			nt.Meta = a.Meta
		}
		nt.Content = a.Content
		return &nt
	}))
}

func reduceToolAuthRequired(s State, a ToolCallAuthRequired) State {
	return updateTool(s, a.MessageID, a.ToolCallID, false, func(tc *ToolCall) *ToolCall {
		if tc.Status != ToolRunning || tc.Contributor == nil || tc.Contributor.Kind != "mcp" {
			return nil
		}
		nt := carryRunning(tc, a.Meta)
		nt.Status = ToolAuthRequired
		auth := a.Auth
		nt.Auth = &auth
		return nt
	})
}

func reduceToolAuthResolved(s State, a ToolCallAuthResolved) State {
	return updateTool(s, a.MessageID, a.ToolCallID, false, fromStatus(ToolAuthRequired, func(tc *ToolCall) *ToolCall {
		nt := carryRunning(tc, a.Meta)
		nt.Status = ToolRunning
		return nt
	}))
}
