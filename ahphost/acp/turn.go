package acp

import (
	"context"
	"errors"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpwire"
)

// cancelGrace is how long a cancelled turn waits for the agent to answer
// its prompt (stopReason "cancelled") before returning to the host.
const cancelGrace = 5 * time.Second

// turnMap maps the ACP updates of one prompt to AHP chat actions. Emits are
// serialised by mu and stop once the turn is over (done).
type turnMap struct {
	b *Bridge
	s *session
	t agent.Turn

	mu       sync.Mutex
	done     bool
	parts    int
	partBase int    // added to parts in part ids (a resumed turn's parts so far: resume.go)
	planName string // the plan's tool call id ("" = TurnID.plan)
	textID   string // open markdown part ("" = next text starts one)
	thinkID  string // open reasoning part
	tools    map[string]*toolMap
	planID   string
	waiters  map[string]chan *ahpwire.ChatToolCallConfirmed
	inputs   map[string]*inputWait // elicitations waiting (elicit.go)
	asked    int                   // elicitations asked in the turn
	changes  bool                  // the changeset was announced in this chat
	lastUsed *ahpwire.UsageInfo
	toolSeen chan struct{} // closed (and replaced) when a tool call is announced
	// denials are the reasons of denied tool calls not yet told to the
	// agent; followUps counts the prompts that told them (followup.go).
	denials   []string
	followUps int
	activity  bool // an activity line is shown (retry.go)
}

// Run runs one turn as an ACP prompt (see the package doc for the mapping).
func (b *Bridge) Run(ctx context.Context, t agent.Turn) error {
	if t.Emit == nil || t.TurnID == "" {
		return errors.New("acp: turn needs TurnID and Emit")
	}
	if t.StartedAt.IsZero() {
		t.StartedAt = b.cfg.Now()
	}
	s, err := b.sessionFor(t.Session, t.Dir)
	if err != nil {
		return err
	}
	tm := &turnMap{b: b, s: s, t: t, tools: map[string]*toolMap{}, waiters: map[string]chan *ahpwire.ChatToolCallConfirmed{},
		toolSeen: make(chan struct{})}
	tm.resumeBase() // resume.go
	if err := s.waitPrompt(ctx); err != nil {
		return err
	}
	s.setTurn(tm)
	defer func() {
		tm.finish()
		s.clearTurn(tm)
	}()
	stopClient := tm.readClient(ctx)
	defer stopClient()
	tm.seedChanges() // changes.go

	p, err := b.getProc(ctx)
	if err != nil {
		return tm.fail(ctx, err)
	}
	b.mu.Lock()
	bound := s.acpID != "" // a session the agent had: resume continues it
	b.mu.Unlock()
	_, notice, err := b.ensureACP(ctx, p, s, t.Text, false)
	if err != nil {
		return tm.fail(ctx, b.authFailure(t, err))
	}
	var history string // the chat so far, for an agent session that has none of it (history.go)
	if notice != "" {
		if history = historyBlock(t); history != "" {
			notice = withHistory[notice]
		}
	}
	if notice != "" {
		tm.text(notice)
	}
	if len(t.Config) == 0 {
		// A session created before the agent told its configuration
		// (the first of `ahptui --agent claude`): the session gets it now,
		// so the chat shows the mode the agent runs in (Claude Code's
		// "auto" approves commands by itself) from the first turn.
		b.reportConfig(s, tm) // configreport.go
	}
	if cmd := shellCommand(t.Text); cmd != "" && len(t.Attachments) == 0 {
		return b.runShell(ctx, tm, cmd) // shell.go
	}
	if err := b.applyConfig(ctx, p, s, t.Config); err != nil {
		b.log.Warn("applying the session configuration", "session", s.uri, "err", err)
	}
	prompt := b.promptBlocks(p.init.AgentCapabilities.PromptCapabilities, t)
	if t.Resume && bound && notice == "" && hasReply(t.Parts) {
		// The agent's session holds the message and the reply so far:
		// it continues the reply (resume.go).
		prompt = []sdk.ContentBlock{sdk.TextBlock(continuePrompt(t))}
	}
	if notes := s.takeShellNotes(); notes != "" {
		prompt = append([]sdk.ContentBlock{sdk.TextBlock(notes)}, prompt...)
	}
	if history != "" {
		prompt = append([]sdk.ContentBlock{sdk.TextBlock(history)}, prompt...)
	}
	first, sent := true, b.cfg.Now()
	for {
		res, err, done := b.prompt(ctx, p, s, tm, prompt)
		if done {
			return err
		}
		// (Read when the answer came: the host starts the next turn as
		// soon as it ended the cancelled one, before the agent answered
		// the cancelled prompt.)
		afterCancel := first && s.wasCancelled()
		first = false
		if err == nil && res.StopReason == sdk.StopReasonCancelled {
			s.markCancelled(true)
		}
		if err == nil && afterCancel && res.StopReason == sdk.StopReasonEndTurn && b.cfg.Now().Sub(sent) < emptyTurnWindow && tm.silent() {
			tm.endWithError("emptyAfterCancel", emptyAfterCancel) // emptyturn.go
			return nil
		}
		if err != nil {
			return tm.fail(ctx, b.authFailure(t, withFailure(s, b.requestError("session/prompt", err, p))))
		}
		switch res.StopReason {
		case sdk.StopReasonEndTurn, sdk.StopReasonCancelled:
			if text := tm.takeFollowUp(); text != "" { // followup.go
				if res.Usage != nil {
					tm.promptUsage(res.Usage)
				}
				prompt = []sdk.ContentBlock{sdk.TextBlock(text)}
				continue
			}
		}
		return tm.stop(ctx, res)
	}
}

// prompt sends one session/prompt and waits for its answer; done reports
// that the host cancelled the turn (err is then Run's result).
func (b *Bridge) prompt(ctx context.Context, p *proc, s *session, tm *turnMap, prompt []sdk.ContentBlock) (sdk.PromptResponse, error, bool) {
	type answer struct {
		res sdk.PromptResponse
		err error
	}
	ch := make(chan answer, 1)
	answered := s.promptStarted()
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer answered()
		res, err := p.conn.Prompt(b.ctx, sdk.PromptRequest{SessionId: sdk.SessionId(s.acpID), Prompt: prompt})
		ch <- answer{res, err}
	}()
	select {
	case a := <-ch:
		return a.res, a.err, false
	case <-ctx.Done():
		s.markCancelled(true) // emptyturn.go
		tm.mu.Lock()
		tm.clearActivityLocked() // retry.go
		tm.mu.Unlock()
		tm.finish() // no emit after the host's cancellation
		_ = p.conn.Cancel(context.WithoutCancel(ctx), sdk.CancelNotification{SessionId: sdk.SessionId(s.acpID)})
		tm.cancelWaiters()
		select {
		case <-ch:
		case <-time.After(cancelGrace):
			b.log.Warn("the agent did not answer a cancelled prompt", "session", s.uri)
		case <-b.ctx.Done():
		}
		return sdk.PromptResponse{}, ctx.Err(), true
	}
}

// readClient forwards the client actions of the turn to their waiters
// until the returned stop is called.
func (tm *turnMap) readClient(ctx context.Context) (stop func()) {
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case a, ok := <-tm.t.Client:
				if !ok {
					tm.cancelWaiters()
					return
				}
				if tm.clientInput(a) { // elicit.go
					continue
				}
				if c, ok := a.(*ahpwire.ChatToolCallConfirmed); ok && c.TurnID == tm.t.TurnID {
					tm.mu.Lock()
					w := tm.waiters[c.ToolCallID]
					delete(tm.waiters, c.ToolCallID)
					tm.mu.Unlock()
					if w != nil {
						w <- c
					}
				}
			case <-quit:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { close(quit); wg.Wait() }
}

// cancelWaiters answers every pending permission request with "cancelled".
func (tm *turnMap) cancelWaiters() {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	for id, w := range tm.waiters {
		close(w)
		delete(tm.waiters, id)
	}
	tm.cancelInputsLocked()
}

// finish stops further emits.
func (tm *turnMap) finish() {
	tm.mu.Lock()
	tm.done = true
	tm.mu.Unlock()
}

// emit sends one action unless the turn is over. tm.mu is held.
func (tm *turnMap) emitLocked(a ahpwire.Action) {
	if tm.done {
		return
	}
	tm.t.Emit(a)
}

// duration is the turn's duration so far (ms).
func (tm *turnMap) duration() *int64 {
	d := max(0, tm.b.cfg.Now().Sub(tm.t.StartedAt).Milliseconds())
	return &d
}

// fail ends the turn with a chat/error carrying err's text (unless ctx was
// cancelled: then the host ends it).
func (tm *turnMap) fail(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	tm.endWithError("agentFailed", err.Error())
	return nil
}

// endWithError closes open tools and ends the turn with a chat/error.
func (tm *turnMap) endWithError(kind, msg string) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	tm.clearActivityLocked()
	tm.closeToolsLocked(false)
	part := ahpwire.ErrorPart(ahpwire.ErrorInfo{ErrorType: kind, Message: msg}, false)
	tm.emitLocked(&ahpwire.ChatError{TurnID: tm.t.TurnID, Duration: tm.duration(), Part: &part})
	tm.done = true
}

// stop maps the prompt's stop reason to the end of the turn.
func (tm *turnMap) stop(ctx context.Context, res sdk.PromptResponse) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if res.Usage != nil {
		tm.promptUsage(res.Usage)
	}
	switch res.StopReason {
	case sdk.StopReasonRefusal:
		tm.endWithError("refusal", "The agent refused to continue (stop reason: refusal).")
	case sdk.StopReasonMaxTokens:
		tm.endWithError("maxTokens", "The agent stopped: it reached its maximum number of tokens (stop reason: max_tokens).")
	case sdk.StopReasonMaxTurnRequests:
		tm.endWithError("maxTurnRequests", "The agent stopped: it reached its maximum number of model requests for one turn (stop reason: max_turn_requests).")
	case sdk.StopReasonCancelled:
		tm.mu.Lock()
		tm.clearActivityLocked()
		tm.closeToolsLocked(false)
		tm.emitLocked(&ahpwire.ChatTurnCancelled{TurnID: tm.t.TurnID, Duration: tm.duration()})
		tm.done = true
		tm.mu.Unlock()
	default:
		tm.mu.Lock()
		tm.clearActivityLocked()
		tm.closeToolsLocked(true)
		tm.emitLocked(&ahpwire.ChatTurnComplete{TurnID: tm.t.TurnID, Duration: tm.duration()})
		tm.done = true
		tm.mu.Unlock()
	}
	return nil
}

// promptUsage reports a prompt's usage.
func (tm *turnMap) promptUsage(u *sdk.Usage) {
	tm.usage(ahpwire.UsageInfo{
		InputTokens:     ahpwire.Ptr(int64(u.InputTokens)),
		OutputTokens:    ahpwire.Ptr(int64(u.OutputTokens)),
		CacheReadTokens: optInt(u.CachedReadTokens),
	})
}

// optInt converts an optional SDK count.
func optInt(p *int) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}
