package ahpstate

import (
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// waitsForClient reports an unresolved input request (part or legacy) or
// a tool call waiting for the client (confirmation, result confirmation or
// authentication); the parts keep the count, so this is O(1).
func waitsForClient(s *ahpwire.ChatState) bool {
	return len(s.InputRequests) > 0 || s.ActiveTurn != nil && s.ActiveTurn.ResponseParts.WaitingForClient() > 0
}

// summaryStatus derives the activity bits from live work, keeping the
// orthogonal flags (IsRead, IsArchived, unknown bits).
func summaryStatus(s *ahpwire.ChatState, terminalError bool) ahpwire.SessionStatus {
	var act ahpwire.SessionStatus
	switch {
	case terminalError:
		act = ahpwire.StatusError
	case waitsForClient(s):
		act = ahpwire.StatusInputNeeded
	case s.ActiveTurn != nil:
		act = ahpwire.StatusInProgress
	default:
		act = ahpwire.StatusIdle
	}
	return s.Status.WithActivity(act)
}

// ChatStatus returns the status the reducer would derive for s.
func ChatStatus(s ahpwire.ChatState) ahpwire.SessionStatus { return summaryStatus(&s, false) }

// endModifiedAt computes modifiedAt at a turn end: startedAt + duration
// when both are known, otherwise the clock, otherwise unchanged.
func (r Reducer) endModifiedAt(cur, startedAt string, duration *int64) string {
	if startedAt != "" && duration != nil {
		if t, err := ParseTime(startedAt); err == nil {
			return FormatTime(t.Add(time.Duration(max(0, *duration)) * time.Millisecond))
		}
	}
	if st := r.stamp(); st != "" {
		return st
	}
	return cur
}
