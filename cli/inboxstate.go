package cli

import (
	"context"
	"strconv"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// The states the inbox (`sessions --all`) names, in the order of how much
// they need the user.
const (
	stateNeedsApproval = "needs-approval" // a tool call waits for a decision
	stateNeedsInput    = "needs-input"    // the agent asked a question
	stateError         = "error"
	stateWorking       = "working"
	stateDone          = "done"
	stateUnreachable   = "unreachable" // the host could not be asked
)

// summaryState is the state a summary alone tells: a session waiting for
// the user is needs-input until its chat says it is an approval.
func summaryState(s ahpwire.SessionSummary) string {
	switch s.Status.Activity() {
	case ahpwire.StatusInputNeeded:
		return stateNeedsInput
	case ahpwire.StatusError:
		return stateError
	case ahpwire.StatusInProgress:
		return stateWorking
	}
	return stateDone
}

// waitingState tells an approval from a question: it reads the chats of a
// session that waits for the user (a tool call waiting for a decision is
// an approval). Without an answer in time it keeps needs-input.
func waitingState(ctx context.Context, c *ahpclient.Client, s ahpwire.SessionSummary) string {
	chats := []string{s.DefaultChat}
	for _, ch := range s.Chats {
		if ch.Resource != s.DefaultChat && (ch.Status == nil || ch.Status.Activity() == ahpwire.StatusInputNeeded) {
			chats = append(chats, ch.Resource)
		}
	}
	for _, ch := range chats {
		if ch == "" {
			continue
		}
		snap, err := c.Subscribe(ctx, ch, nil)
		if err != nil {
			continue
		}
		_ = c.Unsubscribe(ctx, ch)
		st, err := ahpwire.DecodeChatState(snap.State)
		if err != nil || st.ActiveTurn == nil {
			continue
		}
		for _, p := range st.ActiveTurn.ResponseParts.All() {
			if p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && p.ToolCall.WaitsForClient() {
				return stateNeedsApproval
			}
		}
	}
	return stateNeedsInput
}

// parseStamp reads an AHP timestamp (RFC 3339, or epoch milliseconds).
func parseStamp(ts ahpwire.Timestamp) time.Time {
	s := string(ts)
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	return time.Time{}
}

// ageText says how long ago t was, shortly ("45s", "12m", "3h", "2d"; "-"
// when unknown).
func ageText(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := max(now.Sub(t), 0)
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + "h"
	}
	return strconv.Itoa(int(d.Hours()/24)) + "d"
}
