package cli

import (
	"context"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// This file is exec's presentation of its turn: what to print for each
// lifecycle action reducer.Derive found between two states of the chat
// (turn.go's onEvent), and the approvals --approve answers. Exec reads
// only the actions, as the TUI's transcript does: a text's part id
// (BlockDelta.BlockID), a block's state before an update (BlockUpdate.Was:
// a tool call's status, a text's content), the usage as the host sent it
// (UsageChanged.Info), how the turn ended (Error, MessageEnd).

// show presents the actions of exec's turn in order; done reports the end
// of the turn (or a stop: a question, a failed answer).
func (r *turnRun) show(ctx context.Context, acts []reducer.Action) (int, bool) {
	for _, a := range acts {
		if u, ok := a.(reducer.UsageChanged); ok && u.MessageID == r.turnID && u.Info != nil {
			r.usage = u.Info // known before the turn's end is printed
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
				code, done = r.onBlock(ctx, a.BlockStart, &a.Was)
			}
		case reducer.BlockDelta:
			if a.MessageID == r.turnID {
				r.showText(a.Kind, a.BlockID, a.Delta)
			}
		case reducer.Error:
			if a.MessageID == r.turnID {
				r.turnErr = a.Info.Message
			}
		case reducer.MessageEnd:
			if a.MessageID == r.turnID {
				return r.onEnd(a), true
			}
		}
		if done {
			return code, true
		}
	}
	return 0, false
}

// onBlock presents a new block, or one that moved on from block was (nil
// for a new one): text shown whole (or what grew since was), a tool
// call's new status, a question (which stops exec), an error kept for the
// turn's end.
func (r *turnRun) onBlock(ctx context.Context, b reducer.BlockStart, was *reducer.BlockStart) (int, bool) {
	if was != nil && (was.Kind != b.Kind || was.BlockID != b.BlockID) {
		was = nil // another part took this place: a new block
	}
	switch b.Kind {
	case reducer.KindText, reducer.KindThinking:
		add := b.Text
		if was != nil && strings.HasPrefix(add, was.Text) {
			add = add[len(was.Text):]
		}
		r.showText(b.Kind, b.BlockID, add)
	case reducer.KindInputRequest:
		if was == nil && b.Input != nil {
			r.out.input(*b.Input)
			printErr(r.std.err, "ahptui: exec: the host needs input (%s); answer it in the UI: ahptui, then open the session\n",
				firstNonEmpty(b.Input.Message, "a question"))
			return execNeedsInput, true
		}
	case reducer.KindToolCall:
		if b.Tool != nil {
			var before *ahpwire.ToolCallState
			if was != nil {
				before = was.Tool
			}
			return r.onTool(ctx, before, *b.Tool)
		}
	case reducer.KindError:
		if b.Err != nil && b.Err.Message != "" {
			r.partErr = b.Err.Message
		}
	case reducer.KindContentRef:
		if was == nil && b.Ref != nil {
			uri := b.Ref.URI
			r.out.page(r.lastText, b.Ref, func() (string, error) { return readTextRef(ctx, r.h, uri) })
		}
	}
	return 0, false
}

// showText prints text (or reasoning) added to part id.
func (r *turnRun) showText(kind reducer.BlockKind, id, add string) {
	switch {
	case add == "":
	case kind == reducer.KindText:
		r.lastText = id
		r.out.text(id, add)
	default:
		r.out.event("reasoning", "partId", id, "text", add)
	}
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
