package acp

import (
	"context"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// client is the ACP client side the agent talks to (one per process).
type client struct {
	b       *Bridge
	legacy  *legacyRPC  // session models beside the SDK (models.go)
	pending *unanswered // the agent's requests not answered yet (unanswered.go)
	elicit  elicitScopes
}

// peek looks at a line the SDK reads next (reader.go): answers to the
// legacy requests, the scope of elicitation requests.
func (c *client) peek(line []byte) {
	c.legacy.peek(line)
	c.elicit.peek(line)
}

// errNoSession answers requests for an unknown session.
var errNoSession = sdk.NewInvalidParams(map[string]any{"error": "unknown session"})

// SessionUpdate routes a session/update to its session's running turn;
// session-wide updates (commands, title) apply at any time. The bridge's
// reader calls it as it reads each update (reader.go).
func (c *client) SessionUpdate(ctx context.Context, n sdk.SessionNotification) error {
	s := c.b.sessionByACP(n.SessionId)
	if s == nil {
		return nil
	}
	u := n.Update
	s.mu.Lock()
	rp := s.replay
	s.mu.Unlock()
	if rp != nil {
		rp.add(u)
		if u.AvailableCommandsUpdate == nil && u.SessionInfoUpdate == nil && u.CurrentModeUpdate == nil {
			return nil
		}
	}
	tm := s.activeTurn()
	switch {
	case u.AvailableCommandsUpdate != nil:
		s.mu.Lock()
		s.commands = append(s.commands[:0:0], u.AvailableCommandsUpdate.AvailableCommands...)
		if len(s.commands) > maxCommands {
			s.commands = s.commands[:maxCommands]
		}
		s.mu.Unlock()
		return nil
	case u.SessionInfoUpdate != nil:
		if f, ok := airFailure(u.SessionInfoUpdate.Meta); ok { // failures.go
			c.onFailure(s, tm, f)
			return nil
		}
		if t := u.SessionInfoUpdate.Title; t != nil && *t != "" {
			if c.b.index != nil {
				c.b.index.setTitle(s.uri, *t)
			}
			if tm != nil && tm.t.SessionHooks != nil {
				tm.t.SessionHooks.SetTitle(*t)
			}
		}
		return nil
	case u.CurrentModeUpdate != nil:
		c.b.modeChanged(s, tm, string(u.CurrentModeUpdate.CurrentModeId))
		return nil
	case u.ConfigOptionUpdate != nil:
		c.b.optionsChanged(s, tm, u.ConfigOptionUpdate.ConfigOptions)
		return nil
	}
	if tm != nil {
		tm.update(u)
	}
	return nil
}

// maxCommands bounds the slash commands kept per session.
const maxCommands = 500

// RequestPermission shows a pending confirmation with the agent's options
// and answers with the option the first client chose.
func (c *client) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	cancelled := sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}
	s := c.b.sessionByACP(p.SessionId)
	if s == nil {
		return cancelled, nil
	}
	tm := s.activeTurn()
	if tm == nil || len(p.Options) == 0 {
		return cancelled, nil
	}
	tm.waitTool(ctx, string(p.ToolCall.ToolCallId))
	w, ok := tm.askPermission(p)
	if !ok {
		return cancelled, nil
	}
	tm.trackEdits(string(p.ToolCall.ToolCallId), p.ToolCall.Meta) // the files as they are before it runs
	select {
	case ans, ok := <-w:
		if !ok || ans == nil {
			return cancelled, nil
		}
		id := chooseOption(p.Options, ans)
		if id == "" {
			return cancelled, nil
		}
		tm.permissionAnswered(string(p.ToolCall.ToolCallId), ans.Approved)
		if !ans.Approved {
			tm.noteDenial(string(p.ToolCall.ToolCallId), ans) // followup.go
		}
		return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}}, nil
	case <-ctx.Done():
		return cancelled, nil
	}
}

// toolWait bounds how long a permission request waits for its tool call's
// session/update: the SDK runs requests concurrently with the (ordered)
// notifications, so a request can overtake the tool_call sent before it.
const toolWait = 500 * time.Millisecond

// waitTool waits (bounded) until the tool call id was announced.
func (tm *turnMap) waitTool(ctx context.Context, id string) {
	deadline := time.NewTimer(toolWait)
	defer deadline.Stop()
	for {
		tm.mu.Lock()
		_, ok := tm.tools[id]
		seen := tm.toolSeen
		tm.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-seen:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// askPermission emits the pending confirmation and registers its waiter.
func (tm *turnMap) askPermission(p sdk.RequestPermissionRequest) (chan *ahpwire.ChatToolCallConfirmed, bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.done {
		return nil, false
	}
	u := p.ToolCall
	id := string(u.ToolCallId)
	tm.upsertLocked(id, u.Title, u.Kind, u.RawInput, u.Content, u.Locations, nil)
	tc := tm.tools[id]
	if tc.done || tc.pending {
		return nil, false
	}
	// A call the agent already reported in_progress (opencode, Codex's
	// apply_patch) comes back to pending-confirmation: AHP's
	// re-confirmation from running. The user answers it either way.
	var opts []ahpwire.ConfirmationOption
	for _, o := range p.Options {
		kind := "approve"
		if o.Kind == sdk.PermissionOptionKindRejectOnce || o.Kind == sdk.PermissionOptionKindRejectAlways {
			kind = "deny"
		}
		opts = append(opts, ahpwire.ConfirmationOption{ID: string(o.OptionId), Label: o.Name, Kind: kind})
	}
	w := make(chan *ahpwire.ChatToolCallConfirmed, 1)
	tm.waiters[id] = w
	tc.ready, tc.pending = true, true
	var edits *ahpwire.FileEditCollection
	for _, c := range tc.content {
		if c.Type == ahpwire.ContentFileEdit {
			if edits == nil {
				edits = &ahpwire.FileEditCollection{}
			}
			edits.Items = append(edits.Items, ahpwire.FileEdit{Before: c.Before, After: c.After, Diff: c.Diff})
		}
	}
	tm.emitLocked(&ahpwire.ChatToolCallReady{TurnID: tm.t.TurnID, ToolCallID: id,
		InvocationMessage: ahpwire.Plain(tc.title), ToolInput: inputOf(tc), Edits: edits, Options: opts})
	return w, true
}

// permissionAnswered records the answer: a denied call is cancelled on the
// AHP side (the host reduced the client's toolCallConfirmed), an approved
// one runs until the agent reports it.
func (tm *turnMap) permissionAnswered(id string, approved bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tc := tm.tools[id]; tc != nil {
		tc.pending = false
		if !approved {
			tc.done = true
		}
	}
}

// chooseOption returns the agent option for a client's answer: the
// selected option when it is one of the agent's, else the first allow-once
// (approve) or reject-once (deny) option, else the first of that kind.
func chooseOption(opts []sdk.PermissionOption, ans *ahpwire.ChatToolCallConfirmed) string {
	for _, o := range opts {
		if ans.SelectedOptionID != "" && string(o.OptionId) == ans.SelectedOptionID {
			return string(o.OptionId)
		}
	}
	want, also := sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways
	if ans.Approved {
		want, also = sdk.PermissionOptionKindAllowOnce, sdk.PermissionOptionKindAllowAlways
	}
	for _, k := range []sdk.PermissionOptionKind{want, also} {
		for _, o := range opts {
			if o.Kind == k {
				return string(o.OptionId)
			}
		}
	}
	return ""
}
