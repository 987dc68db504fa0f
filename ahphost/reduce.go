package ahphost

import (
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// The host keeps AHP state with package ahpstate's reducers (AHP's own
// semantics, copy-on-write) and validates client actions with its
// validators; these wrappers turn a rejection into a rejectionReason.

func reduceChat(st ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	return ahpstate.ReduceChat(st, a)
}

func reduceSession(st ahpwire.SessionState, a ahpwire.Action) ahpwire.SessionState {
	return ahpstate.ReduceSession(st, a)
}

func reduceRoot(st ahpwire.RootState, a ahpwire.Action) ahpwire.RootState {
	return ahpstate.ReduceRoot(st, a)
}

func validateChat(st ahpwire.ChatState, a ahpwire.Action, clientID string) string {
	return reason(ahpstate.ValidateChatAction(st, a, clientID))
}

func validateSession(st ahpwire.SessionState, a ahpwire.Action, clientID string) string {
	return reason(ahpstate.ValidateSessionAction(st, a, clientID))
}

func validateRoot(st ahpwire.RootState, a ahpwire.Action, clientID string) string {
	return reason(ahpstate.ValidateRootAction(st, a, clientID))
}

// requiredFieldsReason checks the raw action of dispatchAction params for
// the members AHP 1.0 requires ("" = all present).
func requiredFieldsReason(params json.RawMessage) string {
	var p struct {
		Action json.RawMessage `json:"action"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return "undecodable action"
	}
	return reason(ahpstate.CheckRequiredFields(p.Action))
}

// reason converts a validator error into a rejectionReason ("" = accepted).
func reason(err error) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	var r *ahpstate.Rejection
	if errors.As(err, &r) {
		msg = r.Reason
	}
	return clipReason(msg)
}

// maxReasonBytes caps a rejectionReason: reasons quote client values (ids,
// names), which must not make the echo larger than the action.
const maxReasonBytes = 256

// clipReason shortens s to at most maxReasonBytes, on a rune boundary.
func clipReason(s string) string {
	if len(s) <= maxReasonBytes {
		return s
	}
	cut := maxReasonBytes - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
