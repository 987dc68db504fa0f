package ahpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/segment"
)

// Sentinel errors. Typed errors below match them with errors.Is.
var (
	// ErrClosed is returned by every call after Close.
	ErrClosed = errors.New("ahpclient: client closed")
	// ErrNotConnected is returned by requests made while the client has no
	// usable connection (connecting, reconnecting or failed). Dispatch does
	// not return it: dispatches are held in the outbox instead.
	ErrNotConnected = errors.New("ahpclient: not connected")
	// ErrConnectionLost is matched by every *TransportError: the connection
	// ended before the request got its response.
	ErrConnectionLost = errors.New("ahpclient: connection lost")
	// ErrFrameTooLarge is matched by *FrameTooLargeError and
	// *PersistentOversizeError.
	ErrFrameTooLarge = errors.New("ahpclient: received frame exceeds the receive ceiling")
	// ErrUnsupportedVersion is matched by *VersionError.
	ErrUnsupportedVersion = errors.New("ahpclient: unsupported protocol version")
	// ErrUnauthorized is matched by *AuthError.
	ErrUnauthorized = errors.New("ahpclient: host rejected the connection token")
	// ErrRejected is matched by *RejectedError.
	ErrRejected = errors.New("ahpclient: action rejected by host")
	// ErrMessageTooLarge is matched by every "message too large" outcome
	// that leaves the link up: the host's -32050 answer
	// (*MessageTooLargeError) and a request refused locally because it
	// exceeds what the host accepts (*segment.NotNegotiatedError,
	// *segment.MessageTooLargeError). It is segment.ErrMessageTooLarge.
	ErrMessageTooLarge = segment.ErrMessageTooLarge
	// ErrSlowConsumer is matched by the reconnect cause (ConnState.Err)
	// when the host closed the link with CloseSlowConsumer. The client
	// reconnects; it is never a Failed reason.
	ErrSlowConsumer = errors.New("ahpclient: the host dropped this client for reading too slowly")
)

// CloseSlowConsumer is the WebSocket close code (4008 "slow consumer") a
// host sends when it drops a connection whose client does not read fast
// enough to keep the host's write queue within budget. The client maps it
// to a reconnect (see ErrSlowConsumer and "Close codes" in the package
// documentation).
const CloseSlowConsumer = 4008

// TransportError fails a request whose connection broke before the response
// arrived (or a write that could not complete). Cause says why the link
// ended; it never contains the token.
type TransportError struct {
	// Op is what was in progress, e.g. "subscribe" or "write".
	Op string
	// Cause is why the connection ended.
	Cause error
}

// Error implements error.
func (e *TransportError) Error() string {
	if e.Cause == nil {
		return fmt.Sprintf("ahpclient: %s: connection lost", e.Op)
	}
	return fmt.Sprintf("ahpclient: %s: connection lost: %v", e.Op, e.Cause)
}

// Unwrap returns the cause.
func (e *TransportError) Unwrap() error { return e.Cause }

// Is makes errors.Is(err, ErrConnectionLost) true.
func (e *TransportError) Is(target error) bool { return target == ErrConnectionLost }

// FrameTooLargeError reports a received frame above the receive ceiling
// (PROTOCOL.md Part A §3; the frame was never decoded), or, with Remote set,
// that the host or a relay on the path closed the link with 1009 "message
// too big". Either way the transport was closed and the client reconnects.
//
// With Outbound also set the close is attributed to a frame this client
// sent: a Size-byte request or dispatch was in flight and larger than any
// frame the host had accepted before. The client then refuses messages of
// that size toward this host locally (they fail with an error matching
// ErrMessageTooLarge, or are segmented smaller when the host advertised
// chunking), so re-issuing the request cannot drop the link again.
type FrameTooLargeError struct {
	// Limit is the receive ceiling in bytes (0 when Remote).
	Limit int64
	// Remote is true when the peer closed with status 1009.
	Remote bool
	// Outbound is true when the 1009 close is attributed to a frame this
	// client sent.
	Outbound bool
	// Size is the size of that outbound frame (Outbound only).
	Size int64

	// userPending: a user request was awaiting its answer when the frame
	// arrived, so the frame is taken to be that answer (a per-request
	// failure, not a message the host re-sends after reconnecting).
	userPending bool
}

// Error implements error.
func (e *FrameTooLargeError) Error() string {
	switch {
	case e.Outbound:
		return fmt.Sprintf("ahpclient: the host or a relay closed the link (1009) on receiving a %d-byte frame from this client; messages that large are refused locally from now on", e.Size)
	case e.Remote:
		return "ahpclient: the host or a relay closed the link because a frame toward this client was too large (1009)"
	}
	return fmt.Sprintf("ahpclient: host sent a frame larger than the %d-byte receive ceiling", e.Limit)
}

// Is makes errors.Is(err, ErrFrameTooLarge) true.
func (e *FrameTooLargeError) Is(target error) bool { return target == ErrFrameTooLarge }

// MessageTooLargeError is the host's -32050 MessageTooLarge answer
// (PROTOCOL.md Part A §2): the request's answer (or the request itself)
// exceeded a limit of the host or of this client, so the host refused it
// instead of sending it. The connection stays up. errors.As finds the
// underlying *ahpwire.RPCError too, so ErrorCode reports -32050, and
// errors.Is(err, ErrMessageTooLarge) is true.
type MessageTooLargeError struct {
	// Op is the request that failed, e.g. "subscribe".
	Op string
	// Size is data.size: the message's size in bytes (0 if not given).
	Size int64
	// Limit is data.limit: the limit it exceeded (0 if not given).
	Limit int64
	// RPC is the host's error object.
	RPC *ahpwire.RPCError
}

// Error implements error.
func (e *MessageTooLargeError) Error() string {
	if e.Size > 0 || e.Limit > 0 {
		return fmt.Sprintf("ahpclient: %s: the host refused a %d-byte message above the %d-byte limit (MessageTooLarge %d)",
			e.Op, e.Size, e.Limit, ahpwire.CodeMessageTooLarge)
	}
	return fmt.Sprintf("ahpclient: %s: the host refused a message above its size limit (MessageTooLarge %d)", e.Op, ahpwire.CodeMessageTooLarge)
}

// Unwrap returns the host's error object.
func (e *MessageTooLargeError) Unwrap() error { return e.RPC }

// Is makes errors.Is(err, ErrMessageTooLarge) true.
func (e *MessageTooLargeError) Is(target error) bool { return target == ErrMessageTooLarge }

// rpcFailure wraps a request error for op: a -32050 answer becomes a
// *MessageTooLargeError (with size and limit from its data), any other
// error is wrapped with op.
func rpcFailure(op string, err error) error {
	var re *ahpwire.RPCError
	if errors.As(err, &re) && re.Code == ahpwire.CodeMessageTooLarge {
		e := &MessageTooLargeError{Op: op, RPC: re}
		if len(re.Data) > 0 {
			var d ahpwire.MessageTooLargeData
			if json.Unmarshal(re.Data, &d) == nil && d.Size >= 0 && d.Limit >= 0 {
				e.Size, e.Limit = d.Size, d.Limit
			}
		}
		return e
	}
	return fmt.Errorf("ahpclient: %s: %w", op, err)
}

// PersistentOversizeError is the Failed reason when the host sends an
// oversized frame again at the same point after reconnecting: it cannot
// segment for this client, so retrying would loop forever.
type PersistentOversizeError struct {
	// Limit is the receive ceiling in bytes.
	Limit int64
	// LastSeenServerSeq is where the stream was stuck.
	LastSeenServerSeq uint64
	// Occurrences is how many times in a row it happened.
	Occurrences int
	// HostChunking reports whether the host advertised chunking.
	HostChunking bool
	// ClientChunking reports whether this client advertised chunking.
	ClientChunking bool
	// Remote is true when the peer or a relay refused the frame (1009).
	Remote bool
}

// Error implements error with an actionable hint.
func (e *PersistentOversizeError) Error() string {
	var hint string
	switch {
	case !e.ClientChunking:
		hint = "chunking is disabled in this client; enable it so the host can segment large messages"
	case !e.HostChunking:
		hint = "the host does not segment messages (no chunking capability); raise the receive ceiling (--max-frame-bytes) or use a host that supports ahp/messageSegment"
	default:
		hint = "the host advertised chunking but still sent an unsegmented frame; lower the advertised frame limit or report the host bug"
	}
	what := fmt.Sprintf("host sent a frame larger than the %d-byte receive ceiling", e.Limit)
	if e.Remote {
		what = "the link was closed for an oversized frame (1009)"
	}
	return fmt.Sprintf("ahpclient: %s %d times in a row at serverSeq %d; stopped reconnecting: %s",
		what, e.Occurrences, e.LastSeenServerSeq, hint)
}

// Is makes errors.Is(err, ErrFrameTooLarge) true.
func (e *PersistentOversizeError) Is(target error) bool { return target == ErrFrameTooLarge }

// VersionError reports that the host and this client share no protocol
// version: the host refused all offered versions (-32005
// UnsupportedProtocolVersion, its data optional), or it answered
// initialize with a version this client never offered (Chosen).
type VersionError struct {
	// Offered are the versions this client offered.
	Offered []string
	// Supported are the host's versions or ranges (data.supportedVersions;
	// empty when the host did not list them).
	Supported []string
	// Chosen is the unoffered version the host answered with ("" for a
	// -32005 refusal).
	Chosen string
	// Message is the host's error message (token masked).
	Message string
}

// maxHostMessage caps how much of a host's error message an error repeats.
const maxHostMessage = 200

// Error names both sides' versions.
func (e *VersionError) Error() string {
	offered := strings.Join(e.Offered, ", ")
	if e.Chosen != "" {
		return fmt.Sprintf("ahpclient: no common protocol version: this client offered %s, the host answered with %.40q, which was not offered",
			offered, e.Chosen)
	}
	sup := "did not say which versions it supports"
	if len(e.Supported) > 0 {
		sup = "supports " + strings.Join(e.Supported, ", ")
	}
	msg := ""
	if e.Message != "" {
		m := e.Message
		if len(m) > maxHostMessage {
			m = m[:maxHostMessage] + "…"
		}
		msg = fmt.Sprintf(" (host: %q)", m)
	}
	return fmt.Sprintf("ahpclient: no common protocol version: this client offered %s, the host %s%s%s", offered, sup, msg, e.advice())
}

// advice says which side to upgrade: the host when every version it names
// is older than all this client offered, ahptui when the host names only
// newer ones; "" when the lists do not tell (no or unreadable versions).
func (e *VersionError) advice() string {
	var host []semver
	for _, s := range e.Supported {
		for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '|' }) {
			if strings.HasPrefix(f, "<") {
				continue // an upper bound says nothing about what the host speaks
			}
			if v, ok := parseSemver(strings.TrimLeft(f, ">=^~v")); ok {
				host = append(host, v)
			}
		}
	}
	var ours []semver
	for _, s := range e.Offered {
		if v, ok := parseSemver(s); ok {
			ours = append(ours, v)
		}
	}
	if len(host) == 0 || len(ours) == 0 {
		return ""
	}
	hostMin, hostMax := slices.MinFunc(host, semver.cmp), slices.MaxFunc(host, semver.cmp)
	ourMin, ourMax := slices.MinFunc(ours, semver.cmp), slices.MaxFunc(ours, semver.cmp)
	switch {
	case hostMax.cmp(ourMin) < 0:
		return "; the host is older than this client: upgrade the host"
	case hostMin.cmp(ourMax) > 0:
		return "; the host is newer than this client: upgrade ahptui"
	}
	return ""
}

// semver is a MAJOR.MINOR.PATCH version.
type semver [3]int

// parseSemver parses MAJOR.MINOR.PATCH, ignoring a pre-release or build
// suffix.
func parseSemver(s string) (semver, bool) {
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return semver{}, false
	}
	var v semver
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return semver{}, false
		}
		v[i] = n
	}
	return v, true
}

// cmp orders versions.
func (v semver) cmp(w semver) int {
	for i := range v {
		if v[i] != w[i] {
			return v[i] - w[i]
		}
	}
	return 0
}

// Is makes errors.Is(err, ErrUnsupportedVersion) true.
func (e *VersionError) Is(target error) bool { return target == ErrUnsupportedVersion }

// AuthError reports that the WebSocket handshake was refused (HTTP 401 or
// 403): a missing or wrong connection token.
type AuthError struct {
	// StatusCode is the HTTP status of the refused handshake.
	StatusCode int
	// Tried lists the forms the token was sent in, e.g. the query
	// parameter "tkn" and an Authorization header (Bearer); empty when no
	// token was sent. Worded so that the log and terminal masker, which
	// hides what follows "Bearer " or "token=", leaves the words whole.
	Tried []string
}

// Error implements error; it names the forms tried, never the token.
func (e *AuthError) Error() string {
	if len(e.Tried) == 0 {
		return fmt.Sprintf("ahpclient: host refused the connection (HTTP %d): no token was sent; "+
			"give one with the tkn URL parameter, --token or AHPTUI_TOKEN", e.StatusCode)
	}
	return fmt.Sprintf("ahpclient: host refused the connection (HTTP %d): the token was sent as %s and refused; "+
		"check the token, or, if this host reads it from another query parameter (pi-ahp reads the one named token), "+
		"set token_param for the host in the config file", e.StatusCode, strings.Join(e.Tried, " and as "))
}

// Is makes errors.Is(err, ErrUnauthorized) true.
func (e *AuthError) Is(target error) bool { return target == ErrUnauthorized }

// DialError reports that the host could not be reached. URL is masked.
type DialError struct {
	// URL is the dialled URL with the token masked.
	URL string
	// StatusCode is the HTTP status when the handshake got one (else 0).
	StatusCode int
	// Err is the underlying error (without the URL).
	Err error
}

// Error implements error.
func (e *DialError) Error() string {
	if e.StatusCode != 0 {
		return fmt.Sprintf("ahpclient: connect %s: HTTP %d: %v", e.URL, e.StatusCode, e.Err)
	}
	return fmt.Sprintf("ahpclient: connect %s: %v", e.URL, e.Err)
}

// Unwrap returns the underlying error.
func (e *DialError) Unwrap() error { return e.Err }

// RejectedError is an outbox entry's error when the host echoed the action
// with a rejectionReason. The action was not applied.
type RejectedError struct {
	// Channel is where the action was dispatched.
	Channel string
	// ClientSeq identifies the dispatch.
	ClientSeq uint64
	// Reason is the host's rejectionReason.
	Reason string
}

// Error implements error.
func (e *RejectedError) Error() string {
	return fmt.Sprintf("ahpclient: action %d on %s rejected: %s", e.ClientSeq, e.Channel, e.Reason)
}

// Is makes errors.Is(err, ErrRejected) true.
func (e *RejectedError) Is(target error) bool { return target == ErrRejected }

// ProtocolError reports a malformed or unexpected message from the host
// (the connection is closed and re-established).
type ProtocolError struct {
	// Detail describes the problem (never payload).
	Detail string
	// Err is an underlying decode or segment error, if any.
	Err error
}

// Error implements error.
func (e *ProtocolError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("ahpclient: protocol error: %s: %v", e.Detail, e.Err)
	}
	return "ahpclient: protocol error: " + e.Detail
}

// Unwrap returns the underlying error.
func (e *ProtocolError) Unwrap() error { return e.Err }

// ErrorCode returns the JSON-RPC error code carried by err (a host error
// response, possibly wrapped) and whether there was one.
func ErrorCode(err error) (int, bool) {
	var re *ahpwire.RPCError
	if errors.As(err, &re) {
		return re.Code, true
	}
	return 0, false
}

// DeadLinkError is why a silently dropped link was closed: the host did not
// answer a ping in time, or nothing at all arrived for too long.
type DeadLinkError struct {
	// PingTimeout is set when a ping went unanswered for this long.
	PingTimeout time.Duration
	// Silence is set when no frame arrived for this long.
	Silence time.Duration
}

// Error implements error.
func (e *DeadLinkError) Error() string {
	if e.PingTimeout > 0 {
		return fmt.Sprintf("ahpclient: link dead: no answer to ping within %v", e.PingTimeout)
	}
	return fmt.Sprintf("ahpclient: link dead: nothing received for %v", e.Silence.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrConnectionLost) true.
func (e *DeadLinkError) Is(target error) bool { return target == ErrConnectionLost }

// TooLarge describes a "message too large" outcome for a user-facing
// message: see AsMessageTooLarge.
type TooLarge struct {
	// Op is the request that failed ("" when not known).
	Op string
	// Size is the message's size in bytes (0 if not known).
	Size int64
	// Limit is the limit it exceeded in bytes (0 if not known).
	Limit int64
	// ByHost is true when the host refused the message (-32050), false when
	// this client refused to send it because the host could not take it.
	ByHost bool
}

// AsMessageTooLarge reports whether err matches ErrMessageTooLarge and, if
// so, what is known about it (size, limit, who refused). It looks through
// wrapping like errors.As.
func AsMessageTooLarge(err error) (TooLarge, bool) {
	if !errors.Is(err, ErrMessageTooLarge) {
		return TooLarge{}, false
	}
	var host *MessageTooLargeError
	if errors.As(err, &host) {
		return TooLarge{Op: host.Op, Size: host.Size, Limit: host.Limit, ByHost: true}, true
	}
	var nn *segment.NotNegotiatedError
	if errors.As(err, &nn) {
		return TooLarge{Size: nn.Size, Limit: nn.Limit}, true
	}
	var sm *segment.MessageTooLargeError
	if errors.As(err, &sm) {
		return TooLarge{Size: sm.Size, Limit: sm.Limit}, true
	}
	return TooLarge{}, true
}
