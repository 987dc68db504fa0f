package cli

import (
	"context"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// This file is exec's presentation of its turn: what to print for each
// lifecycle action reducer.Derive found between two states of the chat
// (turn.go's onEvent), and the approvals --approve answers. What changed
// is Derive's to say; the states are read only for what an action does
// not carry (a part's id, a tool call's status before, how a turn ended).

// turnStates is the chat's AHP state before and after one event.
type turnStates struct{ before, after ahpwire.ChatState }

// show presents the actions of exec's turn in order; done reports the end
// of the turn (or a stop: a question, a failed answer).
func (r *turnRun) show(ctx context.Context, st turnStates, acts []reducer.Action) (int, bool) {
	for _, a := range acts {
		if u, ok := a.(reducer.UsageChanged); ok && u.MessageID == r.turnID {
			if t := turnIn(st.after, r.turnID); t.usage != nil {
				r.usage = t.usage
			}
		}
	}
	for _, a := range acts {
		var code int
		var done bool
		switch a := a.(type) {
		case reducer.BlockStart:
			if a.MessageID == r.turnID {
				code, done = r.onBlock(ctx, a, nil)
			}
		case reducer.BlockUpdate:
			if a.MessageID == r.turnID {
				code, done = r.onBlock(ctx, a.BlockStart, turnIn(st.before, r.turnID).part(a.Index))
			}
		case reducer.BlockDelta:
			if p := turnIn(st.after, r.turnID).part(a.Index); a.MessageID == r.turnID && p != nil {
				r.showText(a.Kind, p.ID, a.Delta)
			}
		case reducer.MessageEnd:
			if t := turnIn(st.after, r.turnID).ended; a.MessageID == r.turnID && t != nil {
				return r.onEnd(t), true
			}
		}
		if done {
			return code, true
		}
	}
	return 0, false
}

// onBlock presents a new block, or one that moved on from part prev (nil
// for a new one): text shown whole (or what grew since prev), a tool
// call's new status, a question (which stops exec).
func (r *turnRun) onBlock(ctx context.Context, b reducer.BlockStart, prev *ahpwire.ResponsePart) (int, bool) {
	if prev != nil && !samePartID(prev, b) {
		prev = nil
	}
	switch b.Kind {
	case reducer.KindText, reducer.KindThinking:
		add := b.Text
		if prev != nil && strings.HasPrefix(add, prev.Content) {
			add = add[len(prev.Content):]
		}
		r.showText(b.Kind, b.BlockID, add)
	case reducer.KindInputRequest:
		if prev == nil && b.Input != nil {
			r.out.input(*b.Input)
			printErr(r.std.err, "ahptui: exec: the host needs input (%s); answer it in the UI: ahptui, then open the session\n",
				firstNonEmpty(b.Input.Message, "a question"))
			return execNeedsInput, true
		}
	case reducer.KindToolCall:
		if b.Tool != nil {
			var was *ahpwire.ToolCallState
			if prev != nil {
				was = prev.ToolCall
			}
			return r.onTool(ctx, was, *b.Tool)
		}
	}
	return 0, false
}

// showText prints text (or reasoning) added to part id.
func (r *turnRun) showText(kind reducer.BlockKind, id, add string) {
	switch {
	case add == "":
	case kind == reducer.KindText:
		r.out.text(id, add)
	default:
		r.out.event("reasoning", "partId", id, "text", add)
	}
}

// samePartID reports whether part p is the one block b shows.
func samePartID(p *ahpwire.ResponsePart, b reducer.BlockStart) bool {
	switch b.Kind {
	case reducer.KindText:
		return p.Kind == ahpwire.PartMarkdown && p.ID == b.BlockID
	case reducer.KindThinking:
		return p.Kind == ahpwire.PartReasoning && p.ID == b.BlockID
	case reducer.KindToolCall:
		return p.ToolCall != nil && p.ToolCall.ToolCallID == b.BlockID
	case reducer.KindInputRequest:
		return p.Request != nil && p.Request.ID == b.BlockID
	}
	return false
}

// onTool reports a tool call's move from was (nil: new) to tc.
func (r *turnRun) onTool(ctx context.Context, was *ahpwire.ToolCallState, tc ahpwire.ToolCallState) (int, bool) {
	id := tc.ToolCallID
	if was == nil {
		r.tools[id] = tc.DisplayName
		r.out.tool(id, tc.DisplayName, "started", nil)
	} else if was.Status == tc.Status {
		return 0, false
	}
	name := firstNonEmpty(r.tools[id], id)
	switch tc.Status {
	case ahpwire.ToolRunning:
		if was != nil && was.Status != ahpwire.ToolPendingConfirmation { // confirmed by the host, not by us
			r.out.tool(id, name, "running", nil)
		}
	case ahpwire.ToolPendingConfirmation:
		return r.onReady(ctx, name, tc)
	case ahpwire.ToolCompleted, ahpwire.ToolPendingResultConfirmation:
		return r.onComplete(ctx, name, tc)
	}
	return 0, false
}

// turnView is one turn in a chat state: its parts (active's while it
// runs, ended's once it ended), usage, and how it ended (nil while it runs
// or when the state does not hold it).
type turnView struct {
	active ahpwire.Parts
	usage  *ahpwire.UsageInfo
	ended  *ahpwire.Turn
}

// turnIn finds turn id in cs (the active turn, or an ended one).
func turnIn(cs ahpwire.ChatState, id string) turnView {
	if t := cs.ActiveTurn; t != nil && t.ID == id {
		return turnView{active: t.ResponseParts, usage: t.Usage}
	}
	for i := len(cs.Turns) - 1; i >= 0; i-- {
		if t := cs.Turns[i]; t.ID == id {
			return turnView{usage: t.Usage, ended: &t}
		}
	}
	return turnView{}
}

// part returns a copy of part i of the turn (nil when it has none).
func (t turnView) part(i int) *ahpwire.ResponsePart {
	if t.ended != nil {
		if i < 0 || i >= len(t.ended.ResponseParts) {
			return nil
		}
		return &t.ended.ResponseParts[i]
	}
	if i < 0 || i >= t.active.Len() {
		return nil
	}
	p := t.active.At(i)
	return &p
}
