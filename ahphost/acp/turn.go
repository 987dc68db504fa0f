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
	textID   string // open markdown part ("" = next text starts one)
	thinkID  string // open reasoning part
	tools    map[string]*toolMap
	planID   string
	waiters  map[string]chan *ahpwire.ChatToolCallConfirmed
	changes  bool // the changeset was announced in this chat
	lastUsed *ahpwire.UsageInfo
	toolSeen chan struct{} // closed (and replaced) when a tool call is announced
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
	s.setTurn(tm)
	defer func() {
		tm.finish()
		s.clearTurn(tm)
	}()
	stopClient := tm.readClient(ctx)
	defer stopClient()

	p, err := b.getProc(ctx)
	if err != nil {
		return tm.fail(ctx, err)
	}
	_, notice, err := b.ensureACP(ctx, p, s, t.Text)
	if err != nil {
		return tm.fail(ctx, b.authFailure(t, err))
	}
	if notice != "" {
		tm.text(notice)
	}
	if err := b.applyConfig(ctx, p, s, t.Config); err != nil {
		b.log.Warn("applying the session configuration", "session", s.uri, "err", err)
	}
	prompt := b.promptBlocks(p.init.AgentCapabilities.PromptCapabilities, t)
	type answer struct {
		res sdk.PromptResponse
		err error
	}
	ch := make(chan answer, 1)
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		res, err := p.conn.Prompt(b.ctx, sdk.PromptRequest{SessionId: sdk.SessionId(s.acpID), Prompt: prompt})
		ch <- answer{res, err}
	}()
	select {
	case a := <-ch:
		if a.err != nil {
			return tm.fail(ctx, b.authFailure(t, b.requestError("session/prompt", a.err, p)))
		}
		return tm.stop(ctx, a.res)
	case <-ctx.Done():
		tm.finish() // no emit after the host's cancellation
		_ = p.conn.Cancel(context.WithoutCancel(ctx), sdk.CancelNotification{SessionId: sdk.SessionId(s.acpID)})
		tm.cancelWaiters()
		select {
		case <-ch:
		case <-time.After(cancelGrace):
			b.log.Warn("the agent did not answer a cancelled prompt", "session", s.uri)
		case <-b.ctx.Done():
		}
		return ctx.Err()
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
		tm.usage(ahpwire.UsageInfo{
			InputTokens:     ahpwire.Ptr(int64(res.Usage.InputTokens)),
			OutputTokens:    ahpwire.Ptr(int64(res.Usage.OutputTokens)),
			CacheReadTokens: optInt(res.Usage.CachedReadTokens),
		})
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
		tm.closeToolsLocked(false)
		tm.emitLocked(&ahpwire.ChatTurnCancelled{TurnID: tm.t.TurnID, Duration: tm.duration()})
		tm.done = true
		tm.mu.Unlock()
	default:
		tm.mu.Lock()
		tm.closeToolsLocked(true)
		tm.emitLocked(&ahpwire.ChatTurnComplete{TurnID: tm.t.TurnID, Duration: tm.duration()})
		tm.done = true
		tm.mu.Unlock()
	}
	return nil
}

// optInt converts an optional SDK count.
func optInt(p *int) *int64 {
	if p == nil {
		return nil
	}
	v := int64(*p)
	return &v
}
