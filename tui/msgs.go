package tui

import (
	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// Messages produced by commands (results use past tense; errors carry err).
type (
	// connEventMsg carries one event from the client's ordered stream.
	connEventMsg struct {
		ev   ahpclient.Event
		b    Backend      // the backend it came from (nil: the attached one)
		chat *decodedChat // a chat snapshot's state, decoded by the pump
	}
	// decodedChat is a chat snapshot's state decoded off the UI goroutine.
	decodedChat struct {
		state ahpwire.ChatState
		err   error
	}
	// sessionsListedMsg carries a manual listSessions result.
	sessionsListedMsg struct {
		ev ahpclient.SessionsEvent
		b  Backend // the backend asked (nil: the attached one)
	}
	// pumpStoppedMsg reports that the event stream ended (client closed).
	pumpStoppedMsg struct {
		err error
		b   Backend // the backend whose stream ended (nil: the attached one)
	}
	// sessionCreatedMsg reports createSession + subscribe for a new session.
	sessionCreatedMsg struct {
		session string
		err     error
	}
	// subscribedMsg reports a subscribe call (the snapshot itself arrives
	// as an event, ordered with the envelopes).
	subscribedMsg struct {
		channel string
		err     error
	}
	// sessionDisposedMsg reports disposeSession.
	sessionDisposedMsg struct {
		session string
		err     error
	}
	// dispatchedMsg reports a dispatch (its fate arrives as OutboxEvents).
	dispatchedMsg struct {
		channel   string
		clientSeq uint64
		what      string
		action    ahpwire.Action // nil for a resend
		err       error
	}
	// turnsFetchedMsg reports the end of a fetchTurns. It is made from the
	// client's TurnsFetchedEvent, which comes through the event stream after
	// the page (chat/turnsLoaded), so the page has been applied when it
	// arrives.
	turnsFetchedMsg struct {
		channel string
		err     error
	}
	// editorReadyMsg reports the temp file for $EDITOR was written.
	editorReadyMsg struct {
		path string
		err  error
	}
	// editorClosedMsg reports $EDITOR exited.
	editorClosedMsg struct {
		path string
		err  error
	}
	// editorResultMsg carries the edited text.
	editorResultMsg struct {
		text string
		err  error
	}
	// frameMsg is the streaming frame tick: pending output is laid out.
	frameMsg struct{}
	// noticeExpiredMsg clears a transient notice.
	noticeExpiredMsg struct{ id int }
	// demoFaultMsg reports that the demo fault hook ran.
	demoFaultMsg struct{}
	// quitConfirmedMsg quits after the user confirmed.
	quitConfirmedMsg struct{}
	// disposeConfirmedMsg disposes a session after the user confirmed.
	disposeConfirmedMsg struct{ session string }
)

// Intents children hand to the root.
type (
	// openPromptMsg asks the root to (re)open the first pending approval
	// or question.
	openPromptMsg struct{}
	// backToPickerMsg asks the root to leave the chat for the picker.
	backToPickerMsg struct{}
)
