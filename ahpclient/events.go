package ahpclient

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// Event is one item of the client's ordered event stream (see Client.Next).
// The concrete types are ConnStateEvent, EnvelopeEvent, SnapshotEvent,
// ChannelLostEvent, NotificationEvent, OutboxEvent, SessionsEvent and
// TurnsFetchedEvent.
type Event interface {
	isEvent()
}

// Phase is the connection supervisor's state.
type Phase int

// The connection phases.
const (
	// Idle: created, Start not called yet.
	Idle Phase = iota
	// Connecting: the first connection is being established.
	Connecting
	// Connected: the handshake (initialize or reconnect) completed.
	Connected
	// Reconnecting: the link dropped; waiting for or attempting a new one.
	Reconnecting
	// Failed: the client gave up (auth, version, persistent oversize, root
	// state too large for this client, attempts exhausted); Err says why.
	// Only Close remains.
	Failed
	// Closed: Close was called.
	Closed
)

// String returns the phase name.
func (p Phase) String() string {
	switch p {
	case Idle:
		return "idle"
	case Connecting:
		return "connecting"
	case Connected:
		return "connected"
	case Reconnecting:
		return "reconnecting"
	case Failed:
		return "failed"
	case Closed:
		return "closed"
	}
	return fmt.Sprintf("phase(%d)", int(p))
}

// Recovery says how a (re)connection restored the subscribed state.
type Recovery int

// The recovery kinds.
const (
	// RecoveryNone: first connection (initialize).
	RecoveryNone Recovery = iota
	// RecoveryReplay: reconnect returned the missed envelopes.
	RecoveryReplay
	// RecoverySnapshot: reconnect returned fresh snapshots.
	RecoverySnapshot
	// RecoveryReinitialized: reconnect failed; initialize re-created the
	// subscriptions from snapshots.
	RecoveryReinitialized
)

// String returns the recovery name.
func (r Recovery) String() string {
	switch r {
	case RecoveryNone:
		return "none"
	case RecoveryReplay:
		return "replay"
	case RecoverySnapshot:
		return "snapshot"
	case RecoveryReinitialized:
		return "reinitialized"
	}
	return fmt.Sprintf("recovery(%d)", int(r))
}

// ConnState is the connection state shown to the user.
type ConnState struct {
	// Phase is the supervisor state.
	Phase Phase
	// Attempt is the reconnect attempt number (Reconnecting), 0 otherwise.
	Attempt int
	// NextRetry is when attempt Attempt is due (Reconnecting): the
	// supervisor waits out its backoff until then, and the attempt is under
	// way after it. Zero in every other phase. Client.RetryNow cuts the
	// wait short.
	NextRetry time.Time
	// Err is why the link dropped (Reconnecting) or why the client gave up
	// (Failed). Its text never contains the token.
	Err error
	// ProtocolVersion is the negotiated version (Connected).
	ProtocolVersion string
	// Recovery is how the last (re)connection restored state (Connected).
	Recovery Recovery
	// HostChunking reports whether the host advertised chunking (Connected).
	HostChunking bool
}

// retryTimeLayout is how String shows NextRetry (UTC, milliseconds).
const retryTimeLayout = "2006-01-02T15:04:05.000Z07:00"

// String renders the state for logs and status lines (token-free); when
// reconnecting it includes the attempt and, when scheduled, the time of
// the next retry.
func (s ConnState) String() string {
	switch s.Phase {
	case Reconnecting:
		head := fmt.Sprintf("reconnecting (attempt %d", s.Attempt)
		if !s.NextRetry.IsZero() {
			head += ", next retry " + s.NextRetry.UTC().Format(retryTimeLayout)
		}
		head += ")"
		if s.Err != nil {
			return head + ": " + s.Err.Error()
		}
		return head
	case Failed:
		return fmt.Sprintf("failed: %v", s.Err)
	case Connected:
		return "connected (AHP " + s.ProtocolVersion + ")"
	}
	return s.Phase.String()
}

// ConnStateEvent reports a connection state change.
type ConnStateEvent struct {
	// State is the new state.
	State ConnState
}

// EnvelopeEvent carries one action envelope to apply, in serverSeq order
// per channel, never duplicated and never one the host rejected. The
// envelope counts as applied (and lastSeenServerSeq may advance past it)
// once the consumer acknowledges it: by calling Ack, or implicitly by
// calling Next again (unless Options.ExplicitAck is set).
type EnvelopeEvent struct {
	// Envelope is the decoded envelope. Its Action is decoded by Next (on
	// the consumer's goroutine) as ahpwire.DecodeAction does; unknown types,
	// and known types whose payload this build cannot decode, arrive as
	// *ahpwire.UnknownAction for the consumer to ignore, so an envelope is
	// never lost to a decoding problem.
	Envelope ahpwire.ActionEnvelope
	// Replayed is true when it came from a reconnect replay.
	Replayed bool
	// Own is true when it is the echo of this client's dispatch.
	Own bool

	ack *seqTracker
	raw json.RawMessage // action still to decode (by Next)
}

// Ack marks the envelope applied. It is idempotent and safe to call from any
// goroutine.
func (e EnvelopeEvent) Ack() {
	if e.ack != nil {
		e.ack.ack(e.Envelope.ServerSeq)
	}
}

// SnapshotReason says why a snapshot was delivered.
type SnapshotReason int

// The snapshot reasons.
const (
	// SnapshotInitialize: from initialize (first connection or fallback).
	SnapshotInitialize SnapshotReason = iota
	// SnapshotSubscribe: from a subscribe call.
	SnapshotSubscribe
	// SnapshotReconnect: from a reconnect "snapshot" result.
	SnapshotReconnect
)

// SnapshotEvent replaces the consumer's state for one channel. Envelopes of
// that channel delivered after it all have serverSeq > Snapshot.FromSeq.
// Consumers must take channel state from this event (not from the return
// value of Subscribe) so that it is ordered with the envelopes.
type SnapshotEvent struct {
	// Snapshot is the channel state (decode State by URI scheme).
	Snapshot ahpwire.Snapshot
	// Reason says where it came from.
	Reason SnapshotReason
}

// ChannelLostEvent reports a subscription the host could not resume after a
// reconnect (listed in `missing`, or absent from the snapshots). The client
// has dropped it; the consumer should drop its state.
type ChannelLostEvent struct {
	// Channel is the lost subscription.
	Channel string
}

// NotificationEvent carries a protocol notification (root/sessionAdded,
// root/sessionRemoved, root/sessionSummaryChanged, root/progress,
// auth/required, or any other non-action notification). These are never
// replayed after a reconnect; see SessionsEvent.
type NotificationEvent struct {
	// Method is the JSON-RPC method.
	Method string
	// Channel is params.channel.
	Channel string
	// Params are the raw params.
	Params json.RawMessage
}

// OutboxStatus is the state of one dispatched action.
type OutboxStatus int

// The outbox states.
const (
	// OutboxHeld: dispatched while disconnected; sent after reconnecting.
	OutboxHeld OutboxStatus = iota
	// OutboxSent: written to the host; waiting for the echo.
	OutboxSent
	// OutboxConfirmed: echoed without rejectionReason (final).
	OutboxConfirmed
	// OutboxRejected: echoed with rejectionReason (final; never applied).
	OutboxRejected
	// OutboxUncertain: the link dropped before the echo; the host may or
	// may not have applied it. Never re-sent automatically (see Resend). A
	// late echo in a reconnect replay still moves it to Confirmed/Rejected.
	OutboxUncertain
	// OutboxFailed: could not be sent at all (too large for the host,
	// client closed); final.
	OutboxFailed
	// OutboxResent: the user re-sent this uncertain entry (see
	// Client.Resend); the new dispatch has its own clientSeq. Final.
	OutboxResent
)

// String returns the status name.
func (s OutboxStatus) String() string {
	switch s {
	case OutboxHeld:
		return "held"
	case OutboxSent:
		return "sent"
	case OutboxConfirmed:
		return "confirmed"
	case OutboxRejected:
		return "rejected"
	case OutboxUncertain:
		return "uncertain"
	case OutboxFailed:
		return "failed"
	case OutboxResent:
		return "resent"
	}
	return fmt.Sprintf("outbox(%d)", int(s))
}

// Final reports whether the status can no longer change.
func (s OutboxStatus) Final() bool {
	return s == OutboxConfirmed || s == OutboxRejected || s == OutboxFailed || s == OutboxResent
}

// OutboxEntry is a snapshot of one dispatch's state.
type OutboxEntry struct {
	// ClientSeq identifies the dispatch.
	ClientSeq uint64
	// Channel is where it was dispatched.
	Channel string
	// Action is what was dispatched.
	Action ahpwire.Action
	// Status is its current state.
	Status OutboxStatus
	// Err is set for Rejected (*RejectedError), Failed and Uncertain
	// (*TransportError).
	Err error
	// ServerSeq is the echo's serverSeq (Confirmed, Rejected).
	ServerSeq uint64
}

// OutboxEvent reports a change of one outbox entry.
type OutboxEvent struct {
	// Entry is the entry after the change.
	Entry OutboxEntry
}

// SessionsEvent carries the first page of listSessions, fetched after every
// successful (re)connection because session notifications are not replayed.
type SessionsEvent struct {
	// Result is the listSessions result.
	Result ahpwire.ListSessionsResult
	// Err is set when the refresh failed (the connection stays up).
	Err error
}

// TurnsFetchedEvent reports the end of one FetchTurns call through the
// event stream, so that it is ordered with the envelopes: on success it
// comes after the chat/turnsLoaded envelope carrying the page (the host
// sends the page before its answer, and the client delivers the answer's
// event only once it has queued every envelope read before it), so a
// consumer that sees it has already applied the page and can read the new
// turnsNextCursor. Every FetchTurns produces exactly one, also when it
// fails (Err is what FetchTurns returned).
type TurnsFetchedEvent struct {
	// Channel is the chat the turns were fetched for.
	Channel string
	// Cursor is the cursor that was asked for.
	Cursor string
	// Err is why the call failed, nil on success.
	Err error
}

func (ConnStateEvent) isEvent()    {}
func (EnvelopeEvent) isEvent()     {}
func (SnapshotEvent) isEvent()     {}
func (ChannelLostEvent) isEvent()  {}
func (NotificationEvent) isEvent() {}
func (OutboxEvent) isEvent()       {}
func (SessionsEvent) isEvent()     {}
func (TurnsFetchedEvent) isEvent() {}
