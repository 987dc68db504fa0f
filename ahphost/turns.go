package ahphost

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// clientBuffer is the capacity of a turn's client-action channel.
const clientBuffer = 256

// turnRun is one running Agent.Run.
type turnRun struct {
	turnID string
	ctx    context.Context
	cancel context.CancelFunc
	client chan ahpwire.Action
	// work are the ids of the background work the run listed and did not
	// remove; ended is set once the agent ended its turn itself
	// (endRunWork). Both require h.mu.
	work  []string
	ended bool
}

// startRun starts the agent for the chat's active turn (resume=true after
// chat/turnResume). Any previous run of the chat is cancelled. h.mu is held.
func (s *store) startRun(ce *chatEntry, resume bool) {
	at := ce.state.ActiveTurn
	if at == nil {
		return
	}
	if ce.run != nil {
		ce.run.cancel()
	}
	h := s.h
	ctx, cancel := context.WithCancel(h.ctx)
	run := &turnRun{turnID: at.ID, ctx: ctx, cancel: cancel, client: make(chan ahpwire.Action, clientBuffer)}
	ce.run = run
	started := s.turnStart(ce) // a resumed turn's counts on from what it ran (turnclock.go)
	if started.IsZero() {
		started = h.opts.Now()
	}
	var provider string
	var wd []string
	if se := s.sessions[ce.session]; se != nil {
		provider, wd = se.state.Provider, se.state.WorkingDirectories
	}
	t := Turn{
		Chat:         ce.uri,
		Session:      ce.session,
		Provider:     provider,
		Dir:          dirOf(wd),
		Attachments:  at.Message.Attachments,
		SessionHooks: sessionHooks{h: h, run: run, session: ce.session},
		TurnID:       at.ID,
		Text:         at.Message.Text,
		Resume:       resume,
		Parts:        resumedParts(at, resume),
		ReplyTail:    s.replyTail(at, resume), // restore.go
		StartedAt:    started,
		Emit:         func(a ahpwire.Action) { h.agentEmit(ce.uri, run, a) },
		Client:       run.client,
		Config:       s.turnConfig(ce),
		Subagent:     h.subagentFunc(ce.uri),
		Channels:     turnChannels{h: h, run: run},
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		var err error
		if perr := guard(func() { err = h.agent.Run(ctx, t) }); perr != nil {
			h.log.Error("agent panicked", "chat", ce.uri, "err", perr)
			err = errors.New("internal error in the agent")
		}
		h.runDone(ce.uri, run, err)
	}()
}

// agentEmit applies and broadcasts one action of a running turn. Actions
// of a cancelled or superseded run, or for a turn that is no longer active,
// are dropped.
func (h *Host) agentEmit(chat string, run *turnRun, a ahpwire.Action) {
	if a == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.st
	ce := s.chats[chat]
	if run.ctx.Err() != nil || ce == nil || ce.run != run ||
		ce.state.ActiveTurn == nil || ce.state.ActiveTurn.ID != run.turnID {
		h.log.Debug("dropping action of an inactive turn", "chat", chat, "type", a.ActionType())
		return
	}
	run.track(a)
	s.agentChatAction(ce, a) // bigstream.go
	s.afterAgentAction(ce, a)
}

// track records what an agent action means for the run's background work
// and end (endRunWork). h.mu is held.
func (run *turnRun) track(a ahpwire.Action) {
	switch a := a.(type) {
	case *ahpwire.ChatBackgroundWorkSet:
		if !slices.Contains(run.work, a.Work.ID) {
			run.work = append(run.work, a.Work.ID)
		}
	case *ahpwire.ChatBackgroundWorkRemoved:
		run.work = slices.DeleteFunc(run.work, func(id string) bool { return id == a.ID })
	case *ahpwire.ChatTurnComplete, *ahpwire.ChatError:
		run.ended = true
	}
}

// endRunWork removes the background work a cancelled run listed and did
// not remove (`/demo subagent` cancelled with Esc): the agent may not emit
// once cancelled, and no other run removes another's work, so the chat
// showed "⚙ 2 running" for good. Work an agent leaves listed when it ends
// its turn itself is meant to outlive the turn and stays. h.mu is held.
func (s *store) endRunWork(ce *chatEntry, run *turnRun) {
	if run.ended {
		return
	}
	for _, id := range run.work {
		if slices.ContainsFunc(ce.state.BackgroundWork, func(w ahpwire.BackgroundWork) bool { return w.ID == id }) {
			s.applyServerChat(ce, &ahpwire.ChatBackgroundWorkRemoved{ID: id})
		}
	}
	run.work = nil
}

// applyServerChat reduces a server-originated chat action into the chat,
// broadcasts it and runs the follow-ups (afterChatChange). h.mu is held.
func (s *store) applyServerChat(ce *chatEntry, a ahpwire.Action) {
	s.flushDelta(ce) // what the agent's text gathered comes first (coalesce.go)
	ce.state = reduceChat(ce.state, a)
	s.emit(ce.uri, a, nil, "")
	s.afterChatChange(ce)
}

// runDone cleans up after Agent.Run returns. If the agent returned while
// its turn is still active (an agent failure), the host ends the turn with
// a non-resumable chat/error.
func (h *Host) runDone(chat string, run *turnRun, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.st
	ce := s.chats[chat]
	if ce == nil || ce.run != run {
		return
	}
	ce.run = nil
	if run.ctx.Err() != nil {
		return
	}
	run.cancel()
	at := ce.state.ActiveTurn
	if at == nil || at.ID != run.turnID {
		return
	}
	msg := "the agent stopped without finishing the turn"
	if err != nil {
		msg = "agent failed: " + err.Error()
		if errors.Is(err, agent.ErrClientClosed) {
			msg = "the agent stopped waiting for a decision"
		}
	}
	h.log.Warn("agent ended without finishing its turn", "chat", chat, "err", err)
	s.flushSpill(ce)
	part := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: "agentFailed", Message: msg}, false)
	s.applyServerChat(ce, &ahpwire.ChatError{TurnID: at.ID, Duration: ahpwire.Ptr(s.turnDuration(ce)), Part: &part})
	s.endRunWork(ce, run) // a failed agent removes nothing any more
}

// afterChatChange runs after any applied chat action: it stops the agent
// when the turn it runs has ended (a run that emitted its own terminal action
// is returning anyway), consumes queued messages when the chat is idle, and
// publishes catalog/summary changes.
func (s *store) afterChatChange(ce *chatEntry) {
	ce.usedAt = s.sweeps // a change is a use (lazychats.go)
	if run := ce.run; run != nil && (ce.state.ActiveTurn == nil || ce.state.ActiveTurn.ID != run.turnID) {
		run.cancel()
		ce.run = nil
		s.endRunWork(ce, run)
	}
	if ce.state.ActiveTurn == nil {
		s.consumeQueued(ce)
	}
	s.refLargeParts(ce)
	s.syncChat(ce)
	s.childSettled(ce)
}

// consumeQueued starts the next pending message as a new turn when the chat
// is idle (server consumption rule for chat/pendingMessageSet). A steering
// message left when its turn ended (the demo agent does not steer) goes
// first, then the queued messages in order. They wait while the chat's
// last turn is a reply a host stop interrupted (waitsForResume): they were
// sent to follow that reply, which Alt+R can still finish.
func (s *store) consumeQueued(ce *chatEntry) {
	if ce.state.ActiveTurn != nil || waitsForResume(ce.state) {
		return
	}
	s.flushDelta(ce) // (coalesce.go)
	var next ahpwire.PendingMessage
	kind := ahpwire.PendingQueued
	switch {
	case ce.state.SteeringMessage != nil:
		next, kind = *ce.state.SteeringMessage, ahpwire.PendingSteering
	case len(ce.state.SteeringMessages) > 0: // the 1.1 steering list
		next = ce.state.SteeringMessages[0]
		rm := &ahpwire.ChatSteeringMessageRemoved{ID: next.ID}
		ce.state = reduceChat(ce.state, rm)
		s.emit(ce.uri, rm, nil, "")
		s.startServerTurn(ce, next.Message, next.ID)
		return
	case len(ce.state.QueuedMessages) > 0:
		next = ce.state.QueuedMessages[0]
	default:
		return
	}
	rm := &ahpwire.ChatPendingMessageRemoved{Kind: kind, ID: next.ID}
	ce.state = reduceChat(ce.state, rm)
	s.emit(ce.uri, rm, nil, "")
	s.startServerTurn(ce, next.Message, next.ID)
}

// startServerTurn starts a turn the host itself dispatches (a consumed
// queued message or createChat's initialMessage).
func (s *store) startServerTurn(ce *chatEntry, msg ahpwire.ChatMessage, queuedID string) {
	if ce.state.ActiveTurn != nil {
		return
	}
	s.flushDelta(ce) // (coalesce.go)
	a := &ahpwire.ChatTurnStarted{
		TurnID:          "turn-" + ce.uri[len(ahpwire.ChatScheme)+1:] + "-" + strconv.FormatUint(s.seq+1, 10),
		StartedAt:       s.now(),
		Message:         msg,
		QueuedMessageID: queuedID,
	}
	ce.state = reduceChat(ce.state, a)
	s.emit(ce.uri, a, nil, "")
	s.startRun(ce, false)
	s.syncChat(ce)
}

// cancelAllTurns cancels every running agent (host shutdown).
func (s *store) cancelAllTurns() {
	for _, ce := range s.chats {
		if ce.run != nil {
			ce.run.cancel()
			ce.run = nil
		}
	}
	s.closeChildren()
}
