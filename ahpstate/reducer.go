package ahpstate

import (
	"reflect"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// Reducer holds reducer options. The zero value is the default AHP ≥0.9
// reducer that never reads a clock.
type Reducer struct {
	// Now supplies wall-clock time for modifiedAt when an action carries no
	// timestamp of its own (pre-0.9 semantics: turnStarted without
	// startedAt, turn ends without duration, truncation, input actions).
	// When nil, modifiedAt changes only from action data.
	Now func() time.Time
	// Legacy05 selects the 0.5-era input-request model: chat/input* actions
	// act on ChatState.inputRequests instead of inputRequest response parts,
	// and chat/error records Turn.error instead of appending an error part.
	Legacy05 bool
}

// ReduceChat applies a to s with the default Reducer.
func ReduceChat(s ahpwire.ChatState, a ahpwire.Action) ahpwire.ChatState {
	return Reducer{}.Chat(s, a)
}

// ReduceSession applies a to s with the default Reducer.
func ReduceSession(s ahpwire.SessionState, a ahpwire.Action) ahpwire.SessionState {
	return Reducer{}.Session(s, a)
}

// ReduceRoot applies a to s with the default Reducer.
func ReduceRoot(s ahpwire.RootState, a ahpwire.Action) ahpwire.RootState {
	return Reducer{}.Root(s, a)
}

// Channel kinds returned by ActionScope and ChannelKind.
const (
	ScopeRoot    = "root"
	ScopeSession = "session"
	ScopeChat    = "chat"
)

// ActionScope returns the channel kind an action type belongs to ("root",
// "session", "chat") or "" for other prefixes.
func ActionScope(a ahpwire.Action) string {
	if isNil(a) {
		return ""
	}
	t := a.ActionType()
	switch {
	case strings.HasPrefix(t, "chat/"):
		return ScopeChat
	case strings.HasPrefix(t, "session/"):
		return ScopeSession
	case strings.HasPrefix(t, "root/"):
		return ScopeRoot
	}
	return ""
}

// ChannelKind returns the channel kind of a URI ("root", "session",
// "chat") or "" for other schemes.
func ChannelKind(uri string) string {
	switch {
	case uri == ahpwire.RootURI:
		return ScopeRoot
	case strings.HasPrefix(uri, ahpwire.ChatScheme):
		return ScopeChat
	case strings.HasPrefix(uri, ahpwire.SessionScheme):
		return ScopeSession
	}
	return ""
}

// isNil reports whether a is nil or a typed nil pointer.
func isNil(a ahpwire.Action) bool {
	if a == nil {
		return true
	}
	v := reflect.ValueOf(a)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// stamp returns the clock time as an AHP ISO timestamp, or "" without clock.
func (r Reducer) stamp() string {
	if r.Now == nil {
		return ""
	}
	return FormatTime(r.Now())
}

// touched returns s with modifiedAt set from the clock, when there is one.
func (r Reducer) touched(s ahpwire.ChatState) ahpwire.ChatState {
	if st := r.stamp(); st != "" {
		s.ModifiedAt = st
	}
	return s
}

// FormatTime formats t as AHP's ISO-8601 UTC timestamp with milliseconds.
func FormatTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// ParseTime parses an AHP ISO-8601 timestamp.
func ParseTime(s string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, s)
}

// clip returns s with capacity equal to its length, so that append always
// copies instead of writing into a backing array shared with an older state.
func clip[T any](s []T) []T { return s[:len(s):len(s)] }

// without returns a copy of s without the elements for which drop is true,
// and whether anything was dropped.
func without[T any](s []T, drop func(T) bool) ([]T, bool) {
	out := make([]T, 0, len(s))
	for _, v := range s {
		if !drop(v) {
			out = append(out, v)
		}
	}
	return out, len(out) != len(s)
}

// nilIfEmpty returns nil for an empty slice.
func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
