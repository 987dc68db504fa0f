package ahpstate

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Rejection is the reason a client-dispatched action is refused. Its
// Error() text is suitable as an envelope's rejectionReason.
type Rejection struct {
	Reason string
}

// Error returns the human-readable reason.
func (r *Rejection) Error() string { return r.Reason }

func reject(format string, args ...any) error {
	return &Rejection{Reason: fmt.Sprintf(format, args...)}
}

// clientDispatchable lists the action types clients may dispatch
// (AHP `@clientDispatchable`, PROTOCOL.md §12).
var clientDispatchable = map[string]bool{
	"root/configChanged": true,

	"session/titleChanged": true, "session/activeClientSet": true, "session/activeClientRemoved": true,
	"session/workingDirectorySet": true, "session/workingDirectoryRemoved": true, "session/workingDirectoryReplaced": true,
	"session/customizationToggled": true, "session/mcpServerStartRequested": true, "session/mcpServerStopRequested": true,
	"session/mcpServerBackgroundRequested": true, "session/isReadChanged": true, "session/isArchivedChanged": true,
	"session/configChanged": true,

	"chat/turnStarted": true, "chat/toolCallConfirmed": true, "chat/toolCallComplete": true,
	"chat/toolCallResultConfirmed": true, "chat/toolCallContentChanged": true, "chat/turnCancelled": true,
	"chat/turnResume": true, "chat/workingDirectorySet": true, "chat/workingDirectoryRemoved": true,
	"chat/pendingMessageSet": true, "chat/pendingMessageRemoved": true, "chat/steeringMessageSet": true,
	"chat/steeringMessageRemoved": true, "chat/queuedMessagesReordered": true, "chat/draftChanged": true,
	"chat/isReadChanged": true, "chat/isArchivedChanged": true, "chat/inputAnswerChanged": true,
	"chat/inputCompleted": true, "chat/truncated": true,

	"annotations/set": true, "annotations/updated": true, "annotations/removed": true,
	"annotations/entrySet": true, "annotations/entryRemoved": true,
}

// ClientDispatchable reports whether clients may dispatch actions of type t.
func ClientDispatchable(t string) bool { return clientDispatchable[t] }

// checkDispatchable rejects types outside scope or not client-dispatchable.
func checkDispatchable(t, scope string) error {
	if !strings.HasPrefix(t, scope+"/") {
		return reject("action %s does not belong to a %s channel", t, scope)
	}
	if !clientDispatchable[t] {
		if !ahpwire.KnownActionType(t) {
			return reject("unknown action type %s", t)
		}
		return reject("action %s is server-only and cannot be dispatched by a client", t)
	}
	return nil
}
