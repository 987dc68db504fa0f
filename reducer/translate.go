package reducer

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Translate maps one AHP action envelope to lifecycle actions, given the
// state the actions will be applied to (it needs the active turn and the
// open blocks). It never panics and returns nil for envelopes that must not
// change the chat view: envelopes carrying a rejectionReason, envelopes
// without an action, chat actions addressed to another chat than s.Chat
// (when set), unknown action types and actions the view does not show.
//
// Mapping (PROTOCOL.md Part A §7, Part B §6.5):
//
//	chat/turnStarted         → [Truncate (if a turn is active: AHP drops it)] UserMessage, MessageStart
//	                           (+ PendingMessageRemoved for a consumed queuedMessageId)
//	chat/responsePart        → BlockStart (error parts are ignored, as in AHP)
//	chat/delta, chat/reasoning → BlockDelta (text, thinking)
//	chat/usage               → UsageChanged
//	chat/toolCall*           → ToolCallStart/Delta/Ready/Confirmed, ToolResult,
//	                           ToolCallResultConfirmed/ContentChanged/AuthRequired/AuthResolved
//	chat/turnComplete, chat/turnCancelled, chat/error
//	                         → BlockEnd for every open block (non-terminal tool calls
//	                           become cancelled/skipped) [+ Error] + MessageEnd
//	chat/turnResume          → MessageResume
//	chat/truncated           → Truncate;  chat/turnsLoaded → HistoryLoaded
//	chat/inputRequested, chat/inputAnswerChanged, chat/inputCompleted
//	                         → InputRequested, InputAnswered, InputCompleted
//	chat/pendingMessage*, chat/queuedMessagesReordered, chat/steeringMessage*
//	                         → PendingMessageSet/Removed, QueuedReordered
//	chat/activityChanged     → ActivityChanged
//	session/creationFailed   → SessionEnd (failed)
//	session/chatRemoved      → SessionEnd when it removes s.Chat
//
// Turn-scoped actions carry the turn id as MessageID; Reduce ignores (and
// counts) them unless the turn is active, which is AHP's no-op rule.
func Translate(env ahpwire.ActionEnvelope, s State) []Action {
	if env.RejectionReason != "" || env.Action == nil {
		return nil
	}
	t := env.Action.ActionType()
	if strings.HasPrefix(t, "chat/") && s.Chat != "" && env.Channel != "" && env.Channel != s.Chat {
		return nil
	}
	return TranslateAction(env.Action, s)
}

// TranslateAction maps a bare AHP action (no envelope, as in the
// conformance fixtures) to lifecycle actions; see Translate.
func TranslateAction(a ahpwire.Action, s State) []Action {
	switch a := a.(type) {
	case *ahpwire.ChatTurnStarted:
		return translateTurnStarted(a, s)
	case *ahpwire.ChatResponsePart:
		if b, ok := blockStart(a.TurnID, a.Part); ok {
			return []Action{b}
		}
		return nil
	case *ahpwire.ChatDelta:
		return []Action{BlockDelta{MessageID: a.TurnID, BlockID: a.PartID, Kind: KindText, Delta: a.Content}}
	case *ahpwire.ChatReasoning:
		return []Action{BlockDelta{MessageID: a.TurnID, BlockID: a.PartID, Kind: KindThinking, Delta: a.Content}}
	case *ahpwire.ChatUsage:
		return []Action{UsageChanged{MessageID: a.TurnID, Usage: usage(a.Usage)}}
	case *ahpwire.ChatTurnComplete:
		return endTurn(s, a.TurnID, StatusComplete, a.Duration, nil)
	case *ahpwire.ChatTurnCancelled:
		return endTurn(s, a.TurnID, StatusCancelled, a.Duration, nil)
	case *ahpwire.ChatError:
		p := a.ErrorPart()
		info := ErrorInfo{ErrorType: "unknown", Message: "unknown error"}
		if p.Error != nil {
			info = errorInfo(*p.Error, p.Resumable != nil && *p.Resumable)
		}
		return endTurn(s, a.TurnID, StatusError, a.Duration, &info)
	case *ahpwire.ChatTurnResume:
		return []Action{MessageResume{TurnID: a.TurnID}}
	case *ahpwire.ChatTruncated:
		return []Action{Truncate{KeepThroughTurn: a.TurnID, All: a.TurnID == ""}}
	case *ahpwire.ChatTurnsLoaded:
		ms := make([]*Message, 0, 2*len(a.Turns))
		for _, t := range a.Turns {
			ms = append(ms, turnMessages(t)...)
		}
		return []Action{HistoryLoaded{Messages: ms}}
	case *ahpwire.ChatActivityChanged:
		return []Action{ActivityChanged{Activity: a.Activity}}
	case *ahpwire.ChatInputRequested:
		return []Action{InputRequested{Request: inputRequest(a.Request, "")}}
	case *ahpwire.ChatInputAnswerChanged:
		ia := InputAnswered{RequestID: a.RequestID, QuestionID: a.QuestionID}
		if a.Answer != nil {
			v := answer(*a.Answer)
			ia.Answer = &v
		}
		return []Action{ia}
	case *ahpwire.ChatInputCompleted:
		return []Action{InputCompleted{RequestID: a.RequestID, Response: a.Response, Answers: answers(a.Answers)}}
	case *ahpwire.ChatPendingMessageSet:
		return []Action{PendingMessageSet{Kind: a.Kind, Message: PendingMessage{ID: a.ID, Text: a.Message.Text}}}
	case *ahpwire.ChatPendingMessageRemoved:
		return []Action{PendingMessageRemoved{Kind: a.Kind, ID: a.ID}}
	case *ahpwire.ChatQueuedMessagesReordered:
		return []Action{QueuedReordered{Order: append([]string(nil), a.Order...)}}
	case *ahpwire.ChatSteeringMessageSet:
		return []Action{PendingMessageSet{Kind: PendingSteering,
			Message: PendingMessage{ID: a.SteeringMessage.ID, Text: a.SteeringMessage.Message.Text}}}
	case *ahpwire.ChatSteeringMessageRemoved:
		return []Action{PendingMessageRemoved{Kind: PendingSteering, ID: a.ID}}
	case *ahpwire.SessionCreationFailed:
		info := errorInfo(a.Error, false)
		return []Action{SessionEnd{Reason: "session creation failed", Failed: true, Error: &info}}
	case *ahpwire.SessionChatRemoved:
		if s.Chat != "" && a.Chat == s.Chat {
			return []Action{SessionEnd{Reason: "chat removed"}}
		}
		return nil
	}
	if tas := translateTool(a); tas != nil {
		return tas
	}
	return nil
}

func translateTurnStarted(a *ahpwire.ChatTurnStarted, s State) []Action {
	var out []Action
	if s.Current != nil {
		// AHP replaces the active turn: it and its user message vanish.
		out = append(out, Truncate{ActiveOnly: true})
	}
	started := timestamp(a.StartedAt)
	out = append(out,
		UserMessage{TurnID: a.TurnID, Text: a.Message.Text, Origin: a.Message.Origin.Kind,
			Attachments: attachments(a.Message.Attachments), StartedAt: started},
		MessageStart{ID: a.TurnID, TurnID: a.TurnID, StartedAt: started})
	if q := a.QueuedMessageID; q != "" {
		if s.Steering != nil && s.Steering.ID == q {
			out = append(out, PendingMessageRemoved{Kind: PendingSteering, ID: q})
		}
		for _, p := range s.Queued {
			if p.ID == q {
				out = append(out, PendingMessageRemoved{Kind: PendingQueued, ID: q})
				break
			}
		}
	}
	return out
}

// endTurn closes every open block of the active turn, records err, and ends
// the message; nothing if turnID is not the active turn.
func endTurn(s State, turnID string, st MessageStatus, ms *int64, err *ErrorInfo) []Action {
	if s.Current == nil || s.Current.TurnID != turnID {
		return nil
	}
	m := s.Current
	var out []Action
	for _, b := range m.Blocks {
		if b.Open {
			out = append(out, BlockEnd{MessageID: m.ID, BlockID: b.ID})
		}
	}
	if err != nil {
		out = append(out, Error{MessageID: m.ID, Info: *err})
	}
	return append(out, MessageEnd{MessageID: m.ID, Status: st, Duration: duration(ms)})
}

// blockStart converts a response part into a BlockStart for turn turnID.
// Error parts are not accepted through chat/responsePart (AHP).
func blockStart(turnID string, p ahpwire.ResponsePart) (BlockStart, bool) {
	b := BlockStart{MessageID: turnID, BlockID: p.ID}
	switch p.Kind {
	case ahpwire.PartMarkdown:
		b.Kind, b.Text = KindText, p.Content
	case ahpwire.PartReasoning:
		b.Kind, b.Text = KindThinking, p.Content
	case ahpwire.PartSystemNotification:
		b.Kind = KindSystemNotification
		if p.Notification != nil {
			b.Text, b.Markdown = p.Notification.Text, p.Notification.Markdown
		}
	case ahpwire.PartContentRef:
		if p.Ref == nil {
			return b, false
		}
		b.Kind, b.Ref = KindContentRef, contentRef(*p.Ref)
	case ahpwire.PartToolCall:
		if p.ToolCall == nil {
			return b, false
		}
		b.Kind, b.Tool = KindToolCall, toolCall(*p.ToolCall)
		b.BlockID = b.Tool.ID
	case ahpwire.PartInputRequest:
		if p.Request == nil {
			return b, false
		}
		r := inputRequest(*p.Request, p.Response)
		b.Kind, b.Input, b.BlockID = KindInputRequest, &r, r.ID
	case ahpwire.PartError:
		return b, false
	default:
		b.Kind = KindUnknown
		b.Unknown = &UnknownPart{Kind: p.Kind, Raw: append([]byte(nil), p.Raw...)}
		b.BlockID = partID(p.Raw)
	}
	return b, true
}
