package ahpstate

import (
	"github.com/ahptui/ahptui/ahpwire"
)

// toolBase returns the fields common to every tool-call state; meta, when
// non-nil, replaces the tool call's _meta.
func toolBase(tc ahpwire.ToolCallState, meta ahpwire.Meta) ahpwire.ToolCallState {
	m := tc.Meta
	if meta != nil {
		m = meta
	}
	return ahpwire.ToolCallState{
		ToolCallID: tc.ToolCallID, ToolName: tc.ToolName, DisplayName: tc.DisplayName,
		Intention: tc.Intention, Contributor: tc.Contributor, Meta: m,
	}
}

// updateToolCall applies fn to every tool call with toolCallID in the
// active turn turnID. fn returns false for "no change". The calls are
// found by the parts' index and replaced in the persistent list: O(log n)
// for a turn of n parts.
func updateToolCall(s ahpwire.ChatState, turnID, toolCallID string, fn func(ahpwire.ToolCallState) (ahpwire.ToolCallState, bool)) ahpwire.ChatState {
	if !activeIs(&s, turnID) {
		return s
	}
	cur := s.ActiveTurn.ResponseParts
	parts, changed := cur, false
	for i := range cur.Indexes(toolCallID) {
		p := cur.At(i)
		if p.Kind != ahpwire.PartToolCall || p.ToolCall == nil || p.ToolCall.ToolCallID != toolCallID {
			continue
		}
		next, ok := fn(*p.ToolCall)
		if !ok {
			continue
		}
		parts, changed = parts.Set(i, ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &next}), true
	}
	if !changed {
		return s
	}
	s = withActiveParts(s, parts)
	s.Status = summaryStatus(&s, false)
	return s
}

// inStatus adapts fn for updateToolCall: fn applies only to tool calls in
// status from; others are left unchanged.
func inStatus(from string, fn func(ahpwire.ToolCallState) ahpwire.ToolCallState) func(ahpwire.ToolCallState) (ahpwire.ToolCallState, bool) {
	return func(tc ahpwire.ToolCallState) (ahpwire.ToolCallState, bool) {
		if tc.Status != from {
			return tc, false
		}
		return fn(tc), true
	}
}

// carryRunning returns toolBase(tc, meta) with the fields a running tool
// call keeps while it enters and leaves auth-required.
func carryRunning(tc ahpwire.ToolCallState, meta ahpwire.Meta) ahpwire.ToolCallState {
	n := toolBase(tc, meta)
	n.InvocationMessage, n.ToolInput = tc.InvocationMessage, tc.ToolInput
	n.Confirmed, n.SelectedOption, n.Content = tc.Confirmed, tc.SelectedOption, tc.Content
	return n
}

func findOption(opts []ahpwire.ConfirmationOption, id string) *ahpwire.ConfirmationOption {
	if id == "" {
		return nil
	}
	for i := range opts {
		if opts[i].ID == id {
			o := opts[i]
			return &o
		}
	}
	return nil
}

// reduceToolCall handles every chat/toolCall* action.
func (r Reducer) reduceToolCall(s ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	switch a := a.(type) {
	case *ahpwire.ChatToolCallStart:
		if !activeIs(&s, a.TurnID) {
			return s
		}
		tc := ahpwire.ToolCallState{
			Status: ahpwire.ToolStreaming, ToolCallID: a.ToolCallID, ToolName: a.ToolName,
			DisplayName: a.DisplayName, Intention: a.Intention, Contributor: a.Contributor, Meta: a.Meta,
		}
		return withActiveParts(s, s.ActiveTurn.ResponseParts.Append(ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &tc}))
	case *ahpwire.ChatToolCallDelta:
		return updateToolCall(s, a.TurnID, a.ToolCallID, inStatus(ahpwire.ToolStreaming, func(tc ahpwire.ToolCallState) ahpwire.ToolCallState {
			if a.Meta != nil {
				tc.Meta = a.Meta
			}
			if a.Content != "" || tc.PartialInput != nil {
				tc = tc.AppendPartialInput(a.Content) // an empty optional field stays absent
			}
			if a.InvocationMessage != nil {
				tc.InvocationMessage = a.InvocationMessage
			}
			return tc
		}))
	case *ahpwire.ChatToolCallReady:
		return updateToolCall(s, a.TurnID, a.ToolCallID, func(tc ahpwire.ToolCallState) (ahpwire.ToolCallState, bool) {
			if r.Legacy05 && tc.Status == ahpwire.ToolPendingConfirmation {
				return tc, false // 0.5: ready applies only to streaming or running
			}
			return toolReady(tc, a)
		})
	case *ahpwire.ChatToolCallConfirmed:
		return updateToolCall(s, a.TurnID, a.ToolCallID, inStatus(ahpwire.ToolPendingConfirmation, func(tc ahpwire.ToolCallState) ahpwire.ToolCallState {
			n := toolBase(tc, a.Meta)
			n.InvocationMessage = tc.InvocationMessage
			n.SelectedOption = findOption(tc.Options, a.SelectedOptionID)
			n.ToolInput = tc.ToolInput
			if a.Approved {
				n.Status = ahpwire.ToolRunning
				// The edit replaces only inline input; a ContentRef (or
				// absent) input is kept: the host replaces the referenced
				// content before echoing the accepted action.
				if a.EditedToolInput != nil && tc.ToolInput != nil && tc.ToolInput.Ref == nil {
					n.ToolInput = ahpwire.InlineInput(*a.EditedToolInput)
				}
				n.Confirmed = a.Confirmed
				return n
			}
			n.Status = ahpwire.ToolCancelled
			n.Reason = a.Reason
			n.ReasonMessage = a.ReasonMessage
			n.UserSuggestion = a.UserSuggestion
			return n
		}))
	case *ahpwire.ChatToolCallComplete:
		return updateToolCall(s, a.TurnID, a.ToolCallID, func(tc ahpwire.ToolCallState) (ahpwire.ToolCallState, bool) {
			return toolComplete(tc, a)
		})
	case *ahpwire.ChatToolCallResultConfirmed:
		return updateToolCall(s, a.TurnID, a.ToolCallID, inStatus(ahpwire.ToolPendingResultConfirmation, func(tc ahpwire.ToolCallState) ahpwire.ToolCallState {
			n := toolBase(tc, a.Meta)
			n.InvocationMessage = tc.InvocationMessage
			n.ToolInput = tc.ToolInput
			n.SelectedOption = tc.SelectedOption
			if a.Approved {
				n.Status = ahpwire.ToolCompleted
				n.Confirmed = tc.Confirmed
				n.Success, n.PastTenseMessage, n.Content = tc.Success, tc.PastTenseMessage, tc.Content
				n.StructuredContent, n.Error = tc.StructuredContent, tc.Error
				return n
			}
			n.Status = ahpwire.ToolCancelled
			n.Reason = ahpwire.CancelResultDenied
			return n
		}))
	case *ahpwire.ChatToolCallContentChanged:
		return updateToolCall(s, a.TurnID, a.ToolCallID, inStatus(ahpwire.ToolRunning, func(tc ahpwire.ToolCallState) ahpwire.ToolCallState {
			if a.Meta != nil {
				tc.Meta = a.Meta
			}
			tc.Content = a.Content
			return tc
		}))
	case *ahpwire.ChatToolCallAuthRequired:
		return updateToolCall(s, a.TurnID, a.ToolCallID, func(tc ahpwire.ToolCallState) (ahpwire.ToolCallState, bool) {
			if tc.Status != ahpwire.ToolRunning || tc.Contributor == nil || tc.Contributor.Kind != "mcp" {
				return tc, false
			}
			n := carryRunning(tc, a.Meta)
			n.Status = ahpwire.ToolAuthRequired
			auth := a.Auth
			n.Auth = &auth
			return n, true
		})
	case *ahpwire.ChatToolCallAuthResolved:
		return updateToolCall(s, a.TurnID, a.ToolCallID, inStatus(ahpwire.ToolAuthRequired, func(tc ahpwire.ToolCallState) ahpwire.ToolCallState {
			n := carryRunning(tc, a.Meta)
			n.Status = ahpwire.ToolRunning
			return n
		}))
	}
	return s
}

// toolReady handles chat/toolCallReady: streaming, running (re-confirmation)
// or pending-confirmation → running (auto-confirmed) or pending-confirmation.
func toolReady(tc ahpwire.ToolCallState, a *ahpwire.ChatToolCallReady) (ahpwire.ToolCallState, bool) {
	switch tc.Status {
	case ahpwire.ToolStreaming, ahpwire.ToolRunning, ahpwire.ToolPendingConfirmation:
	default:
		return tc, false
	}
	n := toolBase(tc, a.Meta)
	if a.Intention != "" {
		n.Intention = a.Intention
	}
	n.Contributor = refineContributor(tc.Contributor, a.Contributor)
	im := a.InvocationMessage
	n.InvocationMessage = &im
	// The settled input may arrive at ready (possibly as a content
	// reference); when the action omits it the call keeps what it carries,
	// except from streaming, where only a partial stream exists.
	n.ToolInput = a.ToolInput
	if n.ToolInput == nil && tc.Status != ahpwire.ToolStreaming {
		n.ToolInput = tc.ToolInput
	}
	if a.Confirmed != "" {
		n.Status = ahpwire.ToolRunning
		n.Confirmed = a.Confirmed
		return n, true
	}
	var prev ahpwire.ToolCallState // previous pending fields, if any
	if tc.Status == ahpwire.ToolPendingConfirmation {
		prev = tc
	}
	n.Status = ahpwire.ToolPendingConfirmation
	n.ConfirmationTitle = firstNonNil(a.ConfirmationTitle, prev.ConfirmationTitle)
	n.RiskAssessment = firstNonNil(a.RiskAssessment, prev.RiskAssessment)
	n.Edits = firstNonNil(a.Edits, prev.Edits)
	n.Editable = firstNonNil(a.Editable, prev.Editable)
	n.Options = prev.Options
	if a.Options != nil {
		n.Options = a.Options
	}
	return n, true
}

// refineContributor returns the contributor after a ready that names
// next: ownership by a client is fixed at start, so a client-owned call
// keeps its contributor unless next names the same client, and a late
// client contributor never replaces another kind.
func refineContributor(cur, next *ahpwire.ToolCallContributor) *ahpwire.ToolCallContributor {
	if next == nil {
		return cur
	}
	if cur != nil && cur.Kind == "client" {
		if next.Kind == "client" && next.ClientID == cur.ClientID {
			return next
		}
		return cur
	}
	if next.Kind == "client" {
		return cur
	}
	return next
}

func firstNonNil[T any](a, b *T) *T {
	if a != nil {
		return a
	}
	return b
}

// toolComplete handles chat/toolCallComplete from running,
// pending-confirmation or (failed results only) auth-required.
func toolComplete(tc ahpwire.ToolCallState, a *ahpwire.ChatToolCallComplete) (ahpwire.ToolCallState, bool) {
	switch tc.Status {
	case ahpwire.ToolRunning, ahpwire.ToolPendingConfirmation:
	case ahpwire.ToolAuthRequired:
		if a.Result.Success {
			return tc, false
		}
	default:
		return tc, false
	}
	n := toolBase(tc, a.Meta)
	n.InvocationMessage, n.ToolInput = tc.InvocationMessage, tc.ToolInput
	if tc.Status == ahpwire.ToolPendingConfirmation {
		n.Confirmed = ahpwire.ConfirmedNotNeeded
	} else {
		n.Confirmed, n.SelectedOption = tc.Confirmed, tc.SelectedOption
	}
	if tc.Status == ahpwire.ToolAuthRequired {
		n.Content = tc.Content
	}
	content := n.Content
	n.SetResult(a.Result)
	if a.Result.Content == nil {
		n.Content = content
	}
	n.Status = ahpwire.ToolCompleted
	if a.RequiresResultConfirmation && tc.Status != ahpwire.ToolAuthRequired {
		n.Status = ahpwire.ToolPendingResultConfirmation
	}
	return n, true
}
