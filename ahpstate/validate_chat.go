package ahpstate

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Bounds of a chat's pending messages (the lists are copied per change).
const (
	// MaxSteeringMessages caps a chat's steering messages (AHP 1.1).
	MaxSteeringMessages = 64
	// MaxQueuedMessages caps a chat's queued messages.
	MaxQueuedMessages = 256
)

// hasSteering reports whether the chat holds steering message id.
func hasSteering(s ahpwire.ChatState, id string) bool {
	for _, m := range s.SteeringMessages {
		if m.ID == id {
			return true
		}
	}
	return false
}

// ValidateChatAction checks a client-dispatched action against the current
// chat state. clientID is the dispatching client's id (used for
// client-contributed tools). It returns nil to accept or a *Rejection.
func ValidateChatAction(s ahpwire.ChatState, a ahpwire.Action, clientID string) error {
	if isNil(a) {
		return reject("missing action")
	}
	if err := checkDispatchable(a.ActionType(), ScopeChat); err != nil {
		return err
	}
	switch a := a.(type) {
	case *ahpwire.ChatTurnStarted:
		return validateTurnStarted(s, a)
	case *ahpwire.ChatTurnCancelled:
		if s.ActiveTurn == nil {
			return reject("no active turn to cancel")
		}
		if s.ActiveTurn.ID != a.TurnID {
			return reject("turn %q is not the active turn (%q)", a.TurnID, s.ActiveTurn.ID)
		}
	case *ahpwire.ChatTurnResume:
		if s.ActiveTurn != nil {
			return reject("a turn is already in progress")
		}
		if !Resumable(s, a.TurnID) {
			return reject("turn %q is not the latest turn ending in a resumable error", a.TurnID)
		}
	case *ahpwire.ChatTruncated:
		if a.TurnID != "" && !hasTurn(s, a.TurnID) {
			return reject("unknown turn %q", a.TurnID)
		}
	case *ahpwire.ChatToolCallConfirmed:
		return validateToolConfirmed(s, a)
	case *ahpwire.ChatToolCallResultConfirmed:
		tc, err := activeToolCall(s, a.TurnID, a.ToolCallID)
		if err != nil {
			return err
		}
		if tc.Status != ahpwire.ToolPendingResultConfirmation {
			return reject("tool call %q is %s, not awaiting result confirmation", a.ToolCallID, tc.Status)
		}
	case *ahpwire.ChatToolCallComplete:
		tc, err := activeToolCall(s, a.TurnID, a.ToolCallID)
		if err != nil {
			return err
		}
		if tc.Status == ahpwire.ToolAuthRequired {
			if a.Result.Success {
				return reject("tool call %q is waiting for authentication; only a failed result may complete it", a.ToolCallID)
			}
			return nil
		}
		if err := ownsTool(tc, clientID); err != nil {
			return err
		}
		if tc.Status != ahpwire.ToolRunning {
			return reject("tool call %q is %s, not running", a.ToolCallID, tc.Status)
		}
	case *ahpwire.ChatToolCallContentChanged:
		tc, err := activeToolCall(s, a.TurnID, a.ToolCallID)
		if err != nil {
			return err
		}
		if err := ownsTool(tc, clientID); err != nil {
			return err
		}
		if tc.Status != ahpwire.ToolRunning {
			return reject("tool call %q is %s, not running", a.ToolCallID, tc.Status)
		}
	case *ahpwire.ChatInputAnswerChanged:
		req, ok := OpenInputRequest(s, a.RequestID)
		if !ok {
			return reject("no open input request %q", a.RequestID)
		}
		if len(req.Questions) > 0 && !hasQuestion(req, a.QuestionID) {
			return reject("input request %q has no question %q", a.RequestID, a.QuestionID)
		}
		if a.Answer != nil {
			if err := a.Answer.Validate(); err != nil {
				return reject("answer to %q: %v", a.QuestionID, err)
			}
		}
	case *ahpwire.ChatInputCompleted:
		return validateInputCompleted(s, a)
	case *ahpwire.ChatPendingMessageSet:
		if a.Kind != ahpwire.PendingSteering && a.Kind != ahpwire.PendingQueued {
			return reject("unknown pending message kind %q", a.Kind)
		}
		if a.ID == "" {
			return reject("pending message has no id")
		}
		if a.Kind == ahpwire.PendingQueued && len(s.QueuedMessages) >= MaxQueuedMessages && !hasPending(s, a.Kind, a.ID) {
			return reject("the chat already queues %d messages, the most it may; remove some first", MaxQueuedMessages)
		}
		return validateUserMessage(a.Message)
	case *ahpwire.ChatPendingMessageRemoved:
		if !hasPending(s, a.Kind, a.ID) {
			return reject("no %s message %q", a.Kind, a.ID)
		}
	case *ahpwire.ChatSteeringMessageSet:
		if a.SteeringMessage.ID == "" {
			return reject("steering message has no id")
		}
		if len(s.SteeringMessages) >= MaxSteeringMessages && !hasSteering(s, a.SteeringMessage.ID) {
			return reject("the chat already holds %d steering messages, the most it may; remove some first", MaxSteeringMessages)
		}
		return validateUserMessage(a.SteeringMessage.Message)
	case *ahpwire.ChatSteeringMessageRemoved:
		if !hasSteering(s, a.ID) {
			return reject("no steering message %q", a.ID)
		}
	case *ahpwire.ChatDraftChanged:
		if a.Draft != nil && a.Draft.Origin.Kind != ahpwire.MessageKindUser {
			return reject("a client may only draft user messages")
		}
	case *ahpwire.ChatWorkingDirectorySet:
		if a.Directory == "" {
			return reject("empty working directory")
		}
	case *ahpwire.ChatWorkingDirectoryRemoved, *ahpwire.ChatQueuedMessagesReordered,
		*ahpwire.ChatIsReadChanged, *ahpwire.ChatIsArchivedChanged:
	default:
		return reject("action %s is not supported by this host", a.ActionType())
	}
	return nil
}

func validateTurnStarted(s ahpwire.ChatState, a *ahpwire.ChatTurnStarted) error {
	if a.TurnID == "" {
		return reject("turn has no id")
	}
	if s.ActiveTurn != nil {
		return reject("a turn is already in progress (%s)", s.ActiveTurn.ID)
	}
	if hasTurn(s, a.TurnID) {
		return reject("turn id %q is already used", a.TurnID)
	}
	if a.StartedAt != "" {
		if _, err := ParseTime(a.StartedAt); err != nil {
			return reject("startedAt %q is not an ISO-8601 timestamp", a.StartedAt)
		}
	}
	return validateUserMessage(a.Message)
}

func validateUserMessage(m ahpwire.ChatMessage) error {
	if m.Origin.Kind != ahpwire.MessageKindUser {
		return reject("a client may only send user messages (origin %q)", m.Origin.Kind)
	}
	if strings.TrimSpace(m.Text) == "" && len(m.Attachments) == 0 {
		return reject("empty message")
	}
	return nil
}

func hasTurn(s ahpwire.ChatState, id string) bool {
	for _, t := range s.Turns {
		if t.ID == id {
			return true
		}
	}
	return false
}

func hasQuestion(r ahpwire.ChatInputRequest, id string) bool {
	for _, q := range r.Questions {
		if q.ID == id {
			return true
		}
	}
	return false
}

func hasPending(s ahpwire.ChatState, kind, id string) bool {
	switch kind {
	case ahpwire.PendingSteering:
		return s.SteeringMessage != nil && s.SteeringMessage.ID == id
	case ahpwire.PendingQueued:
		for _, m := range s.QueuedMessages {
			if m.ID == id {
				return true
			}
		}
	}
	return false
}

// activeToolCall finds a tool call in the active turn turnID.
func activeToolCall(s ahpwire.ChatState, turnID, toolCallID string) (ahpwire.ToolCallState, error) {
	if s.ActiveTurn == nil {
		return ahpwire.ToolCallState{}, reject("no active turn")
	}
	if s.ActiveTurn.ID != turnID {
		return ahpwire.ToolCallState{}, reject("turn %q is not the active turn (%q)", turnID, s.ActiveTurn.ID)
	}
	parts := s.ActiveTurn.ResponseParts
	for i := range parts.Indexes(toolCallID) {
		if p := parts.At(i); p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && p.ToolCall.ToolCallID == toolCallID {
			return *p.ToolCall, nil
		}
	}
	return ahpwire.ToolCallState{}, reject("unknown tool call %q", toolCallID)
}

// ownsTool requires a client-contributed tool owned by clientID.
func ownsTool(tc ahpwire.ToolCallState, clientID string) error {
	if tc.Contributor == nil || tc.Contributor.Kind != "client" {
		return reject("tool call %q is not executed by a client", tc.ToolCallID)
	}
	if tc.Contributor.ClientID != clientID {
		return reject("tool call %q belongs to another client", tc.ToolCallID)
	}
	return nil
}

func validateToolConfirmed(s ahpwire.ChatState, a *ahpwire.ChatToolCallConfirmed) error {
	tc, err := activeToolCall(s, a.TurnID, a.ToolCallID)
	if err != nil {
		return err
	}
	if tc.Status != ahpwire.ToolPendingConfirmation {
		return reject("tool call %q is %s, not awaiting confirmation", a.ToolCallID, tc.Status)
	}
	if a.Approved {
		switch a.Confirmed {
		case ahpwire.ConfirmedUserAction, ahpwire.ConfirmedSetting, ahpwire.ConfirmedNotNeeded:
		default:
			return reject("approval needs confirmed user-action, setting or not-needed (got %q)", a.Confirmed)
		}
		if a.EditedToolInput != nil && (tc.Editable == nil || !*tc.Editable) {
			return reject("tool call %q input is not editable", a.ToolCallID)
		}
	} else if a.Reason != ahpwire.CancelDenied && a.Reason != ahpwire.CancelSkipped {
		return reject("denial needs reason denied or skipped (got %q)", a.Reason)
	}
	if a.SelectedOptionID != "" {
		o := findOption(tc.Options, a.SelectedOptionID)
		if o == nil {
			return reject("tool call %q has no option %q", a.ToolCallID, a.SelectedOptionID)
		}
		if (o.Kind == "approve") != a.Approved && (o.Kind == "approve" || o.Kind == "deny") {
			return reject("option %q is a %s option but approved is %v", o.ID, o.Kind, a.Approved)
		}
	}
	return nil
}

func validateInputCompleted(s ahpwire.ChatState, a *ahpwire.ChatInputCompleted) error {
	req, ok := OpenInputRequest(s, a.RequestID)
	if !ok {
		return reject("no open input request %q", a.RequestID)
	}
	switch a.Response {
	case ahpwire.InputAccept, ahpwire.InputDecline, ahpwire.InputCancel:
	default:
		return reject("unknown input response %q", a.Response)
	}
	for q, ans := range a.Answers {
		if err := ans.Validate(); err != nil {
			return reject("answer to %q: %v", q, err)
		}
	}
	if a.Response == ahpwire.InputAccept {
		if missing := req.MissingRequired(mergeAnswers(req.Answers, a.Answers)); len(missing) > 0 {
			return reject("required questions not answered: %s", strings.Join(missing, ", "))
		}
	}
	return nil
}
