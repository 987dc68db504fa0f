package app

import (
	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// OpenArtifactsMsg asks the root for the artifacts list.
type OpenArtifactsMsg struct{}

// SessionsListedMsg carries a manual listSessions result.
type SessionsListedMsg struct {
	Event   ahpclient.SessionsEvent
	Backend Backend // the backend asked (nil: the attached one)
}

// SessionCreatedMsg reports createSession + subscribe for a new session.
type SessionCreatedMsg struct {
	Session string
	Err     error
}

// SubscribedMsg reports a subscribe call (the snapshot itself arrives
// as an event, ordered with the envelopes).
type SubscribedMsg struct {
	Channel string
	Err     error
}

// SessionDisposedMsg reports disposeSession.
type SessionDisposedMsg struct {
	Session string
	Err     error
}

// DispatchedMsg reports a dispatch (its fate arrives as OutboxEvents).
type DispatchedMsg struct {
	Channel   string
	ClientSeq uint64
	What      string
	Action    ahpwire.Action // nil for a resend
	Err       error
}

// TurnsFetchedMsg reports the end of a fetchTurns. It is made from the
// client's TurnsFetchedEvent, which comes through the event stream after
// the page (chat/turnsLoaded), so the page has been applied when it
// arrives.
type TurnsFetchedMsg struct {
	Channel string
	Err     error
}

// EditorReadyMsg reports the temp file for $EDITOR was written.
type EditorReadyMsg struct {
	Path string
	Err  error
}

// EditorClosedMsg reports $EDITOR exited.
type EditorClosedMsg struct {
	Path string
	Err  error
}

// EditorResultMsg carries the edited text.
type EditorResultMsg struct {
	Text string
	Err  error
}

// FrameMsg is the streaming frame tick: pending output is laid out.
type FrameMsg struct{}

// NoticeExpiredMsg clears a transient notice.
type NoticeExpiredMsg struct{ ID int }

// DemoFaultMsg reports that the demo fault hook ran.
type DemoFaultMsg struct{}

// QuitConfirmedMsg quits after the user confirmed.
type QuitConfirmedMsg struct{}

// DisposeConfirmedMsg disposes a session after the user confirmed.
type DisposeConfirmedMsg struct{ Session string }

// Intents children hand to the root.
type (
	// OpenPromptMsg asks the root to (re)open the first pending approval
	// or question.
	OpenPromptMsg struct{}
	// BackToPickerMsg asks the root to leave the chat for the picker.
	BackToPickerMsg struct{}
)

// OpenSettingsMsg asks the root for the session settings form.
type OpenSettingsMsg struct{}

// OpenTerminalMsg asks the root model to open the terminal viewer on one
// terminal (a focused tool block's) and claim it for typing.
type OpenTerminalMsg struct{ URI string }
