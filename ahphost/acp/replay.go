package acp

import (
	"context"
	"fmt"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// maxReplayBytes bounds the history a session/load may replay into turns;
// past it the rest is dropped (with a note in the last turn).
const maxReplayBytes = 32 << 20

// replay rebuilds finished AHP turns from the updates session/load
// replays: a user message starts a turn; agent text, thoughts and tool
// calls become its parts.
type replay struct {
	mu      sync.Mutex
	turns   []ahpwire.Turn
	bytes   int
	dropped bool
	tools   map[string]int // tool call id → part index in the last turn
	lastAt  time.Time      // when the last update came
}

// Replays that outlast their answer. ACP has the agent send the whole
// history before it answers session/load; Gemini CLI 0.61 answers after
// its first update and sends the rest afterwards. Those late updates must
// not reach the next turn (the old reply would open the new one), so the
// bridge keeps collecting them until the agent has been quiet for
// replayQuiet, at most replayLinger after the answer (settle).
const (
	replayQuiet  = 300 * time.Millisecond
	replayLinger = 10 * time.Second
)

// settle, called once the agent answered session/load, waits until it
// sent no replayed update for replayQuiet (counted from the answer or the
// last update after it), at most replayLinger; it reports whether updates
// came after the answer.
func (r *replay) settle(ctx context.Context) (late bool) {
	start := time.Now()
	r.mu.Lock()
	if r.lastAt.Before(start) {
		r.lastAt = start
	}
	r.mu.Unlock()
	for {
		r.mu.Lock()
		last := r.lastAt
		r.mu.Unlock()
		if last.After(start) {
			late = true
		}
		wait := replayQuiet - time.Since(last)
		if wait <= 0 || time.Since(start) >= replayLinger {
			return late
		}
		select {
		case <-ctx.Done():
			return late
		case <-time.After(wait):
		}
	}
}

// add folds one replayed update in.
func (r *replay) add(u sdk.SessionUpdate) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastAt = time.Now()
	if r.bytes > maxReplayBytes {
		r.dropped = true
		return
	}
	switch {
	case u.UserMessageChunk != nil:
		text := contentText(u.UserMessageChunk.Content)
		r.bytes += len(text)
		if n := len(r.turns); n > 0 && len(r.turns[n-1].ResponseParts) == 0 {
			r.turns[n-1].Message.Text += text
			return
		}
		r.turns = append(r.turns, ahpwire.Turn{
			ID: fmt.Sprintf("restored-%d", len(r.turns)+1), Message: ahpwire.UserMessage(text), State: ahpwire.TurnComplete,
		})
		r.tools = map[string]int{}
	case u.AgentMessageChunk != nil:
		r.appendText(ahpwire.PartMarkdown, contentText(u.AgentMessageChunk.Content))
	case u.AgentThoughtChunk != nil:
		r.appendText(ahpwire.PartReasoning, contentText(u.AgentThoughtChunk.Content))
	case u.ToolCall != nil:
		st := u.ToolCall.Status
		r.tool(string(u.ToolCall.ToolCallId), u.ToolCall.Title, string(u.ToolCall.Kind), &st)
	case u.ToolCallUpdate != nil:
		title := ""
		if u.ToolCallUpdate.Title != nil {
			title = *u.ToolCallUpdate.Title
		}
		r.tool(string(u.ToolCallUpdate.ToolCallId), title, "", u.ToolCallUpdate.Status)
	}
}

// last returns the turn parts go to (a turn without a message when the
// history starts with the agent).
func (r *replay) last() *ahpwire.Turn {
	if len(r.turns) == 0 {
		r.turns = append(r.turns, ahpwire.Turn{ID: "restored-1", Message: ahpwire.UserMessage(""), State: ahpwire.TurnComplete})
		r.tools = map[string]int{}
	}
	return &r.turns[len(r.turns)-1]
}

// appendText appends to the last part of kind, or starts one.
func (r *replay) appendText(kind, text string) {
	if text == "" {
		return
	}
	r.bytes += len(text)
	t := r.last()
	if n := len(t.ResponseParts); n > 0 && t.ResponseParts[n-1].Kind == kind {
		t.ResponseParts[n-1].Content += text
		return
	}
	id := fmt.Sprintf("%s.%s%d", t.ID, kind[:1], len(t.ResponseParts)+1)
	if kind == ahpwire.PartReasoning {
		t.ResponseParts = append(t.ResponseParts, ahpwire.ReasoningPart(id, text))
	} else {
		t.ResponseParts = append(t.ResponseParts, ahpwire.MarkdownPart(id, text))
	}
}

// tool records a replayed tool call as a finished one.
func (r *replay) tool(id, title, kind string, status *sdk.ToolCallStatus) {
	t := r.last()
	i, ok := r.tools[id]
	if !ok {
		if title == "" {
			title = "Tool call"
		}
		if kind == "" {
			kind = "other"
		}
		tc := ahpwire.ToolCallState{Status: ahpwire.ToolCompleted, ToolCallID: t.ID + "." + id, ToolName: kind, DisplayName: title,
			InvocationMessage: ahpwire.PlainPtr(title), Confirmed: ahpwire.ConfirmedNotNeeded, Success: ahpwire.Ptr(true),
			PastTenseMessage: ahpwire.PlainPtr(title)}
		t.ResponseParts = append(t.ResponseParts, ahpwire.ResponsePart{Kind: ahpwire.PartToolCall, ToolCall: &tc})
		i = len(t.ResponseParts) - 1
		r.tools[id] = i
	}
	tc := t.ResponseParts[i].ToolCall
	if title != "" {
		tc.DisplayName, tc.InvocationMessage, tc.PastTenseMessage = title, ahpwire.PlainPtr(title), ahpwire.PlainPtr(title)
	}
	if status != nil && *status == sdk.ToolCallStatusFailed {
		tc.Success = ahpwire.Ptr(false)
	}
}

// result returns the rebuilt turns.
func (r *replay) result() []ahpwire.Turn {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dropped && len(r.turns) > 0 {
		t := &r.turns[len(r.turns)-1]
		t.ResponseParts = append(t.ResponseParts, ahpwire.MarkdownPart(t.ID+".cut", "\n\n_(older history was too long to restore in full)_"))
	}
	return cleanReplayedTurns(r.turns) // replaytext.go
}

// OpenSession resumes a session kept across a restart as soon as a client
// opens it: session/load's replay comes back as its turns (ensureACP
// prefers it to session/resume, which has no history to show, for such a
// session).
func (b *Bridge) OpenSession(ctx context.Context, uri string, restore func([]ahpwire.Turn)) {
	s, err := b.sessionFor(uri, "")
	if err != nil {
		return
	}
	b.mu.Lock()
	stale := s.stale
	b.mu.Unlock()
	if !stale {
		return
	}
	p, err := b.getProc(ctx)
	if err != nil {
		b.log.Warn("opening a stored session", "session", uri, "err", err)
		return
	}
	turns, _, err := b.ensureACP(ctx, p, s, "", true)
	if err != nil {
		b.log.Info("stored session not resumed", "session", uri, "err", err)
		return
	}
	restore(turns)
}
