package reducer

import (
	"strings"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// Apply applies one AHP action envelope to a chat: AHP's state cs moves on
// with package ahpstate's chat reducer (the only code that knows which
// AHP transitions are legal), and the transcript s follows with the
// lifecycle actions Derive finds between the two AHP states. Envelopes
// that must not change the chat are ignored: those carrying a
// rejectionReason, those without an action, and chat actions addressed to
// another chat than cs.Resource (when both are set). The derived actions
// are returned too (nil when nothing changed).
func Apply(cs ahpwire.ChatState, s State, env ahpwire.ActionEnvelope) (ahpwire.ChatState, State, []Action) {
	if env.RejectionReason != "" || env.Action == nil {
		return cs, s, nil
	}
	if strings.HasPrefix(env.Action.ActionType(), "chat/") && cs.Resource != "" && env.Channel != "" && env.Channel != cs.Resource {
		return cs, s, nil
	}
	return ApplyAction(cs, s, env.Action)
}

// ApplyAction applies a bare AHP action (no envelope, as in the
// conformance fixtures); see Apply.
func ApplyAction(cs ahpwire.ChatState, s State, a ahpwire.Action) (ahpwire.ChatState, State, []Action) {
	next := cs
	if ahpstate.ActionScope(a) == ahpstate.ScopeChat {
		next = ahpstate.ReduceChat(ahpstate.LiftLegacyInputs(cs), a)
	}
	s, acts := Follow(s, a, cs, next)
	return next, s, acts
}

// Follow moves the transcript s along one change of AHP's chat state that
// action a made, from before to after (a client's ahpstate.Mirror applied
// it; see Derive), and returns the derived actions too.
func Follow(s State, a ahpwire.Action, before, after ahpwire.ChatState) (State, []Action) {
	acts := Derive(a, ahpstate.LiftLegacyInputs(before), ahpstate.LiftLegacyInputs(after))
	return ReduceAll(s, acts...), acts
}

// Derive returns the lifecycle actions that carry a transcript projected
// from before (see Project) to the projection of after, where after is
// AHP's chat state once action a was applied to before (by package
// ahpstate). The action only says which kind of change to look for; what
// changed is read from the two states, so an action AHP ignored yields no
// lifecycle actions, and no AHP rule is restated here. Session actions
// that end the chat (session/creationFailed, session/chatRemoved naming
// after.Resource) yield SessionEnd.
//
//	chat/turnStarted            → [Truncate{ActiveOnly}] UserMessage, MessageStart
//	chat/turnComplete, chat/turnCancelled, chat/error
//	                            → BlockUpdate/BlockStart for changed and new parts,
//	                              BlockEnd for open blocks, MessageEnd
//	chat/turnResume             → MessageResume
//	chat/truncated              → Truncate;  chat/turnsLoaded → HistoryLoaded
//	anything in the active turn → BlockStart (new part), BlockDelta (text grew),
//	                              BlockUpdate (tool call or input request changed),
//	                              UsageChanged
//	pending/steering messages   → PendingChanged;  activity → ActivityChanged
//	nil (a snapshot replaced the state, as after a reconnect)
//	                            → what happened meanwhile: MessageStart for a turn
//	                              that started, the end of one that ended, or the
//	                              active turn's block changes
func Derive(a ahpwire.Action, before, after ahpwire.ChatState) []Action {
	switch a := a.(type) {
	case *ahpwire.SessionCreationFailed:
		info := errorInfo(a.Error, false)
		return []Action{SessionEnd{Reason: "session creation failed", Failed: true, Error: &info}}
	case *ahpwire.SessionChatRemoved:
		if after.Resource != "" && a.Chat == after.Resource {
			return []Action{SessionEnd{Reason: "chat removed"}}
		}
		return nil
	}
	out := deriveTurns(nil, a, &before, &after)
	if pendingChanged(&before, &after) {
		steering, queued := pending(&after)
		out = append(out, PendingChanged{Steering: steering, Queued: queued})
	}
	if before.Activity != after.Activity {
		out = append(out, ActivityChanged{Activity: after.Activity})
	}
	return out
}

// deriveTurns appends the actions for changes of the turns and the active
// turn.
func deriveTurns(out []Action, a ahpwire.Action, before, after *ahpwire.ChatState) []Action {
	bt, at := before.ActiveTurn, after.ActiveTurn
	nb, na := len(before.Turns), len(after.Turns)
	if a == nil {
		if out, done := catchUp(out, before, after); done {
			return out
		}
	}
	switch a := a.(type) {
	case *ahpwire.ChatTruncated:
		if bt == at && nb == na {
			return out
		}
		return append(out, Truncate{KeepThroughTurn: a.TurnID, All: a.TurnID == ""})
	case *ahpwire.ChatTurnsLoaded:
		if na <= nb {
			return out
		}
		return append(out, HistoryLoaded{Messages: turnsMessages(after.Turns[:na-nb])})
	case *ahpwire.ChatTurnResume:
		if bt == nil && at != nil {
			return append(out, MessageResume{TurnID: at.ID})
		}
		return out
	case *ahpwire.ChatTurnStarted:
		if at == nil || at == bt {
			return out
		}
		if bt != nil {
			out = append(out, Truncate{ActiveOnly: true}) // AHP replaced the active turn
		}
		return startTurn(out, at)
	case *ahpwire.ChatTurnComplete, *ahpwire.ChatTurnCancelled, *ahpwire.ChatError:
		if bt == nil || at != nil || na != nb+1 {
			return out
		}
		return endTurn(out, bt, &after.Turns[na-1])
	}
	if bt == nil || at == nil || bt == at {
		return out
	}
	if bt.ID != at.ID { // not a change any action makes: rebuild
		return append(out, ProjectActions(*after)...)
	}
	out = syncActive(out, at.ID, bt.ResponseParts, at.ResponseParts)
	if at.Usage != nil && at.Usage != bt.Usage {
		out = append(out, UsageChanged{MessageID: at.ID, Usage: usage(*at.Usage), Info: at.Usage})
	}
	return out
}

// catchUp appends the actions for a turn that started or ended while a
// snapshot replaced the state; done is false when the active turn stayed
// (its changes are derived as any action's).
func catchUp(out []Action, before, after *ahpwire.ChatState) ([]Action, bool) {
	bt, at := before.ActiveTurn, after.ActiveTurn
	switch {
	case bt == nil && at != nil:
		return startTurn(out, at), true
	case bt != nil && at == nil:
		for i := len(after.Turns) - 1; i >= 0; i-- {
			if after.Turns[i].ID == bt.ID {
				return endTurn(out, bt, &after.Turns[i]), true
			}
		}
		return out, true
	}
	return out, false
}

// startTurn appends the actions that show a new active turn.
func startTurn(out []Action, at *ahpwire.ActiveTurn) []Action {
	out = append(out, userMessage(at.ID, at.StartedAt, at.Message),
		MessageStart{ID: at.ID, TurnID: at.ID, StartedAt: timestamp(at.StartedAt)})
	out = syncActive(out, at.ID, ahpwire.Parts{}, at.ResponseParts)
	if at.Usage != nil {
		out = append(out, UsageChanged{MessageID: at.ID, Usage: usage(*at.Usage), Info: at.Usage})
	}
	return out
}

// endTurn appends the actions that finish active turn bt as turn t.
func endTurn(out []Action, bt *ahpwire.ActiveTurn, t *ahpwire.Turn) []Action {
	bp := bt.ResponseParts.Slice() // once per turn
	for i := range t.ResponseParts {
		var b *ahpwire.ResponsePart
		if i < len(bp) {
			b = &bp[i]
		}
		out = syncPart(out, bt.ID, i, b, &t.ResponseParts[i])
	}
	if t.Error != nil {
		e := errorInfo(*t.Error, false)
		out = append(out, Error{MessageID: bt.ID, Info: e})
	}
	for i := range t.ResponseParts {
		if partOpen(&t.ResponseParts[i]) {
			out = append(out, BlockEnd{MessageID: bt.ID, Index: i})
		}
	}
	if t.Usage != nil && t.Usage != bt.Usage {
		out = append(out, UsageChanged{MessageID: bt.ID, Usage: usage(*t.Usage), Info: t.Usage})
	}
	return append(out, MessageEnd{MessageID: bt.ID, Status: turnStatus(t.State), Duration: duration(t.Duration), Reported: t.Duration != nil})
}

// syncActive appends the block actions that turn the blocks of an active
// turn's parts bp (block i shows part i) into those of ap. Only the parts
// ap does not share with bp are read (Parts.Changed): O(log n) for one
// action's change to a turn of n parts.
func syncActive(out []Action, msgID string, bp, ap ahpwire.Parts) []Action {
	for i := range ap.Changed(bp) {
		a := ap.At(i)
		var b *ahpwire.ResponsePart
		if i < bp.Len() {
			p := bp.At(i)
			b = &p
		}
		out = syncPart(out, msgID, i, b, &a)
	}
	return out
}

// syncPart appends the block action that turns block i, showing part b
// (nil when there is no block i yet), into one showing part a.
func syncPart(out []Action, msgID string, i int, b, a *ahpwire.ResponsePart) []Action {
	switch {
	case b == nil:
		return append(out, partStart(msgID, a))
	case samePart(a, b):
		return out
	case a.Kind == b.Kind && (a.Kind == ahpwire.PartMarkdown || a.Kind == ahpwire.PartReasoning) &&
		a.ID == b.ID && len(a.Content) > len(b.Content) && strings.HasPrefix(a.Content, b.Content):
		kind := KindText
		if a.Kind == ahpwire.PartReasoning {
			kind = KindThinking
		}
		return append(out, BlockDelta{MessageID: msgID, Index: i, BlockID: a.ID, Kind: kind,
			Delta: a.Content[len(b.Content):], text: a.Text()})
	}
	return append(out, BlockUpdate{Index: i, BlockStart: partStart(msgID, a), Was: partStart(msgID, b)})
}

// pendingChanged reports whether the steering or queued messages changed.
func pendingChanged(b, a *ahpwire.ChatState) bool {
	return b.SteeringMessage != a.SteeringMessage || !sameSlice(b.SteeringMessages, a.SteeringMessages) ||
		!sameSlice(b.QueuedMessages, a.QueuedMessages)
}

// sameSlice reports whether a and b are the same slice (ahpstate replaces
// a slice it changes).
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// SessionEnded reads from a session's state whether it ended for its chat
// chatURI: a failed session (lifecycle failed or creationFailed) and one
// that no longer lists the chat end it (SessionEnd, for SESSION_END). A
// session that lists no chat at all (a host of another dialect names only
// its default chat, or none) has not removed this one.
func SessionEnded(ss ahpwire.SessionState, chatURI string) (SessionEnd, bool) {
	switch ss.Lifecycle {
	case ahpwire.LifecycleFailed, ahpwire.LifecycleCreationFailed:
		end := SessionEnd{Reason: "session failed", Failed: true}
		if e := ss.CreationError; e != nil {
			info := errorInfo(*e, false)
			end.Error = &info
		}
		return end, true
	}
	if len(ss.Chats) == 0 || chatURI == "" || chatURI == ss.DefaultChat {
		return SessionEnd{}, false
	}
	for _, c := range ss.Chats {
		if c.Resource == chatURI {
			return SessionEnd{}, false
		}
	}
	return SessionEnd{Reason: "chat removed"}, true
}
