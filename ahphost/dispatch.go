package ahphost

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// forwardToAgent lists chat actions the running agent is told about.
var forwardToAgent = map[string]bool{
	ahpwire.ActionChatToolCallConfirmed: true,
	"chat/toolCallResultConfirmed":      true,
	"chat/inputAnswerChanged":           true,
	"chat/inputCompleted":               true,
	"chat/pendingMessageSet":            true,
	"chat/pendingMessageRemoved":        true,
	"chat/toolCallComplete":             true,
}

// dispatchAction validates, applies and echoes a client action. Actions to
// unknown channels are ignored; invalid ones are echoed with a
// rejectionReason and not applied. raw is the encoded action and missing
// the required-fields rejection ("" = none), both computed before the lock.
// h.mu is held.
func (c *conn) dispatchAction(p *ahpwire.DispatchActionParams, raw []byte, missing string) {
	s := c.h.st
	a := p.Action
	origin := &ahpwire.ActionOrigin{ClientID: c.clientID, ClientSeq: p.ClientSeq}
	if !s.exists(p.Channel) {
		return
	}
	reject := func(reason string) {
		c.h.log.Debug("action rejected", "conn", c.id, "type", a.ActionType(), "reason", reason)
		s.emitRaw(p.Channel, a, raw, origin, reason)
	}
	if missing != "" {
		reject(missing)
		return
	}
	if c.readOnly {
		reject(watchOnlyReason) // auth.go
		return
	}
	switch kindOf(p.Channel) {
	case chanRoot:
		if reason := validateRoot(s.root, a, c.clientID); reason != "" {
			reject(reason)
			return
		}
		s.root = reduceRoot(s.root, a)
		s.emitRaw(p.Channel, a, raw, origin, "")
	case chanSession:
		se := s.sessions[p.Channel]
		if reason := validateSession(se.state, a, c.clientID); reason != "" {
			reject(reason)
			return
		}
		se.state = reduceSession(se.state, a)
		s.emitRaw(p.Channel, a, raw, origin, "")
		s.publishSummary(se)
		s.configChanged(se, a)
		s.archivedForBudget(a) // budget.go
	case chanChat:
		ce := s.chat(p.Channel)
		if ce == nil {
			reject(unreadableChat)
			return
		}
		if reason := s.dispatchChat(ce, a, raw, origin); reason != "" {
			c.h.log.Debug("action rejected", "conn", c.id, "type", a.ActionType(), "reason", reason)
		}
	case chanAnnotations:
		if reason := s.dispatchAnnotations(p.Channel, a, raw, origin); reason != "" {
			c.h.log.Debug("action rejected", "conn", c.id, "type", a.ActionType(), "reason", reason)
		}
	case chanResourceWatch:
		reject("resource-watch channels take no client actions")
	case chanTerminal, chanChangeset:
		if reason := s.dispatchExt(p.Channel, a, origin); reason != "" {
			c.h.log.Debug("action rejected", "conn", c.id, "type", a.ActionType(), "reason", reason)
		}
	}
}

// dispatchChat validates a client chat action; an accepted one is reduced,
// echoed and acted upon, a rejected one is echoed with the returned reason.
// h.mu is held.
func (s *store) dispatchChat(ce *chatEntry, a ahpwire.Action, raw []byte, origin *ahpwire.ActionOrigin) string {
	// Turn ids are scoped by their chat (every URI made for a turn names
	// its chat): the same id in two chats is two turns.
	s.flushDelta(ce) // the agent's text gathered so far first (coalesce.go)
	reason := validateChat(ce.state, a, origin.ClientID)
	if reason != "" {
		s.emitRaw(ce.uri, a, raw, origin, reason)
		return reason
	}
	switch x := a.(type) {
	case *ahpwire.ChatTurnCancelled, *ahpwire.ChatTruncated:
		s.flushSpill(ce) // the reply so far, before the turn ends
		// A resumed turn's cancel is timed by the host (turnclock.go).
		if c := s.resumedCancel(ce, a); c != nil {
			a, raw = c, nil
		}
	case *ahpwire.ChatTurnResume:
		s.noteResume(ce, x.TurnID) // turnclock.go
	}
	ce.state = reduceChat(ce.state, a)
	s.emitRaw(ce.uri, a, raw, origin, "")
	s.refLargeParts(ce)
	s.chatSideEffects(ce, a)
	return ""
}

// chatSideEffects runs the host's reaction to an accepted client chat
// action: start, resume or stop the agent, or forward the action to it.
func (s *store) chatSideEffects(ce *chatEntry, a ahpwire.Action) {
	switch a := a.(type) {
	case *ahpwire.ChatTurnStarted:
		s.maybeTitleSession(ce, a.Message.Text)
		s.demoHistory(a.Message.Text)
		s.startRun(ce, false)
	case *ahpwire.ChatTurnResume:
		s.startRun(ce, true)
	default:
		if ce.run != nil && forwardToAgent[a.ActionType()] {
			select {
			case ce.run.client <- a:
			default:
				s.stalledAgent(ce, a)
				return
			}
		}
	}
	s.afterChatChange(ce)
}

// stalledAgent ends the turn of an agent that has not read the last
// clientBuffer actions it was sent, when one more does not fit: the action
// was validated, reduced and echoed, so dropping it would leave its client
// waiting on it for ever (an approval the agent never hears of). The turn
// fails visibly instead (a resumable chat/error: a resume starts the agent
// afresh, with the chat as it is) and the agent is stopped. h.mu is held.
func (s *store) stalledAgent(ce *chatEntry, a ahpwire.Action) {
	run := ce.run
	s.h.log.Warn("agent not reading client actions; turn stopped", "chat", ce.uri, "type", a.ActionType(), "unread", len(run.client))
	ce.run = nil // runDone of this run changes nothing now
	run.cancel()
	at := ce.state.ActiveTurn
	if at == nil || at.ID != run.turnID {
		s.afterChatChange(ce)
		return
	}
	s.flushSpill(ce)
	msg := fmt.Sprintf("the agent stopped reading what this chat sent it (%d actions unread, the last %s); the turn was stopped", len(run.client), a.ActionType())
	part := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "agentNotReading", Message: msg}, true)
	s.applyServerChat(ce, &ahpwire.ChatError{TurnID: at.ID, Duration: ahpwire.Ptr(s.turnDuration(ce)), Part: &part})
}

// maybeTitleSession names a still-untitled session after its first message.
func (s *store) maybeTitleSession(ce *chatEntry, text string) {
	se := s.sessions[ce.session]
	if se == nil || se.state.Title != "New session" {
		return
	}
	title := strings.TrimSpace(strings.SplitN(strings.TrimSpace(text), "\n", 2)[0])
	if r := []rune(title); len(r) > 60 {
		title = string(r[:59]) + "…"
	}
	if title == "" {
		return
	}
	s.applySession(se, &ahpwire.SessionTitleChanged{Title: title}, nil)
}
