package ahpstate

import (
	"encoding/json"
	"time"

	"github.com/ahptui/ahptui/internal/ahpfixtures"
)

// clockModifiedAt is the reason for the modifiedAt divergence: 0.8-era
// fixtures expect the runners' pinned wall clock (Date.now() = 9999).
const clockModifiedAt = "0.8-era reducers stamp modifiedAt with Date.now(); since 0.9.0 (and in 1.0.0) the chat " +
	"reducer derives it from action data — chat/turnStarted sets modifiedAt = startedAt, a turn end " +
	"(turnComplete/turnCancelled/error, which carry a required duration) sets startedAt + duration — so replay " +
	"on client and server is deterministic (types/channels-chat/reducer.ts since 0.9.0; PROTOCOL.md §6.1, §11)"

// pinnedStamp is the modifiedAt the 0.8-era runners produce.
const pinnedStamp = "1970-01-01T00:00:09.999Z"

// knownClockFixtures are the fixtures of the shipped 0.8 set that expect
// the wall-clock modifiedAt where 1.0 derives it from action data. The
// test checks that the rule below applies to each of them; fixtures of
// another set ($AHP_FIXTURES_DIR) are handled by the same rule and logged.
var knownClockFixtures = map[string]bool{
	"005-session-turnstarted.json":                                                 true,
	"007-turnstarted-with-queuedmessageid-removes-last-queued-message.json":        true,
	"009-turnstarted-without-queuedmessageid-does-not-touch-pending-messages.json": true,
	"075-turnstarted-clears-isread.json":                                           true,
	"250-turncomplete-force-cancels-auth-required-tool-call.json":                  true,
	"268-chat-turn-resume-preserves-errors-across-retries.json":                    true,
}

// modifiedAt10 replays the 1.0 modifiedAt rule over a chat fixture's raw
// actions, independently of the reducer: it returns the modifiedAt 1.0
// derives from action data, and false when the last action that moves
// modifiedAt is not a turn start or end (those still use the clock here).
func modifiedAt10(fx ahpfixtures.Reducer) (string, bool) {
	type turn struct {
		ID        string `json:"id"`
		StartedAt string `json:"startedAt"`
	}
	var init struct {
		Turns      []turn `json:"turns"`
		ActiveTurn *turn  `json:"activeTurn"`
	}
	if json.Unmarshal(fx.Initial, &init) != nil {
		return "", false
	}
	started := map[string]string{}
	for _, t := range init.Turns {
		started[t.ID] = t.StartedAt
	}
	active := ""
	if init.ActiveTurn != nil {
		active = init.ActiveTurn.ID
		started[active] = init.ActiveTurn.StartedAt
	}
	last, ok := "", false
	for _, raw := range fx.Actions {
		var a struct {
			Type      string `json:"type"`
			TurnID    string `json:"turnId"`
			StartedAt string `json:"startedAt"`
			Duration  *int64 `json:"duration"`
		}
		if json.Unmarshal(raw, &a) != nil {
			return "", false
		}
		switch a.Type {
		case "chat/turnStarted":
			active, started[a.TurnID] = a.TurnID, a.StartedAt
			last, ok = a.StartedAt, a.StartedAt != ""
		case "chat/turnComplete", "chat/turnCancelled", "chat/error":
			if a.TurnID != active || active == "" {
				continue
			}
			active = ""
			t, err := ParseTime(started[a.TurnID])
			if err != nil || a.Duration == nil {
				last, ok = "", false
				continue
			}
			last, ok = FormatTime(t.Add(time.Duration(max(0, *a.Duration))*time.Millisecond)), true
		case "chat/turnResume":
			if _, known := started[a.TurnID]; known && active == "" {
				active = a.TurnID
			}
		case "chat/truncated", "chat/inputRequested", "chat/inputAnswerChanged", "chat/inputCompleted":
			last, ok = "", false // clock-stamped: the fixture's value stands
		}
	}
	return last, ok
}
