package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// humanError says what went wrong in words a user acts on. Known classes
// of error (connecting, the token, the link, the host's answers) get a
// sentence of their own; anything else is shown without the package
// prefixes and library wording in front of it.
func humanError(err error) string {
	var (
		again *TokenRefusedAgain
		dial  *ahpclient.DialError
		auth  *ahpclient.AuthError
		ver   *ahpclient.VersionError
		rej   *ahpclient.RejectedError
		rpc   *ahpwire.RPCError
		prot  *ahpclient.ProtocolError
	)
	switch {
	case errors.As(err, &again):
		return again.Error()
	case errors.As(err, &auth):
		return stripPrefixes(auth.Error()) // names the token forms tried
	case errors.As(err, &dial):
		return dialText(dial)
	case errors.As(err, &ver):
		return stripPrefixes(ver.Error()) // both sides' versions, which to upgrade
	case errors.As(err, &rej):
		return "the host rejected it: " + rej.Reason
	case errors.As(err, &rpc):
		return rpcText(rpc)
	case errors.As(err, &prot):
		return "the host sent something this client cannot use"
	case errors.Is(err, ahpclient.ErrFrameTooLarge):
		return "a message from the host was too large; reconnecting"
	case errors.Is(err, ahpclient.ErrNotConnected):
		return "not connected — try again once reconnected"
	case errors.Is(err, ahpclient.ErrConnectionLost):
		return "the connection to the host was lost"
	case errors.Is(err, ahpclient.ErrClosed):
		return "the connection is closed"
	case errors.Is(err, context.DeadlineExceeded):
		return "the host did not answer in time"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return stripPrefixes(err.Error())
}

// TokenRefusedAgain is the client's failure when the host refused the
// token it had accepted on this client's earlier connections: the host
// restarted with another token (a serve given no --token keeps its token
// in its state directory, unless --new-token or --ephemeral).
type TokenRefusedAgain struct {
	// Err is the refusal (an *ahpclient.AuthError).
	Err error
}

func (e *TokenRefusedAgain) Error() string {
	// The advice first: an 80-column status line shows only the start.
	return "attach again with the host's new URL: it refused the token it accepted before " +
		"(it restarted with another: --new-token, another --token, or --ephemeral, which keeps none)"
}

// Unwrap returns the refusal.
func (e *TokenRefusedAgain) Unwrap() error { return e.Err }

// dialText explains a failed connection attempt.
func dialText(d *ahpclient.DialError) string {
	var dns *net.DNSError
	switch {
	case d.StatusCode == 503:
		return "the host is unavailable (HTTP 503)"
	case d.StatusCode == 404:
		return "no AHP host at that address (HTTP 404)"
	case d.StatusCode != 0:
		return fmt.Sprintf("the host did not accept the connection (HTTP %d)", d.StatusCode)
	case errors.Is(d.Err, syscall.ECONNREFUSED):
		return "nothing is listening at that address — is the host running?"
	case errors.As(d.Err, &dns):
		return "unknown host name"
	case errors.Is(d.Err, context.DeadlineExceeded) || isTimeout(d.Err):
		return "the host did not answer"
	}
	return "cannot reach the host"
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// rpcText explains an error answer of the host; its message is the host's
// own words (sanitised where shown).
func rpcText(e *ahpwire.RPCError) string {
	switch e.Code {
	case ahpwire.CodeSessionNotFound, ahpwire.CodeNotFound:
		return "not found on the host"
	case ahpwire.CodeTurnInProgress:
		return "a turn is already running"
	case ahpwire.CodePermissionDenied:
		return "the host does not allow it"
	case ahpwire.CodeAuthRequired:
		return "the host needs you to sign in first"
	}
	if m := strings.TrimSpace(e.Message); m != "" {
		return "the host said: " + m
	}
	return fmt.Sprintf("the host answered with error %d", e.Code)
}

// stripPrefixes removes the "pkg: " and library prefixes Go errors pile up
// ("ahpclient: subscribe: failed to WebSocket dial: …").
func stripPrefixes(s string) string {
	for _, p := range []string{"ahpclient: ", "ahpwire: ", "segment: ", "websocket: ", "failed to WebSocket dial: "} {
		s = strings.ReplaceAll(s, p, "")
	}
	// "connect ws://host/…: reason": the status line shows the host already.
	if rest, ok := strings.CutPrefix(s, "connect "); ok {
		if i := strings.Index(rest, ": "); i >= 0 && strings.Contains(rest[:i], "://") {
			s = rest[i+2:]
		}
	}
	return s
}

// ActionLabel names what a dispatched action did, for a notice.
func ActionLabel(a ahpwire.Action) string {
	switch a.(type) {
	case *ahpwire.ChatTurnStarted:
		return "sending the message"
	case *ahpwire.ChatPendingMessageSet:
		return "queueing the message"
	case *ahpwire.ChatPendingMessageRemoved:
		return "removing the queued message"
	case *ahpwire.ChatTurnCancelled:
		return "cancelling the turn"
	case *ahpwire.ChatToolCallConfirmed, *ahpwire.ChatToolCallResultConfirmed:
		return "the tool decision"
	}
	return a.ActionType()
}
