package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// turnRun is one `ahptui exec` turn.
type turnRun struct {
	h      *headless
	o      execOpts
	std    stdio
	out    *eventWriter
	caught func() os.Signal

	session, chat, turnID string
	started               time.Time
	usage                 *ahpwire.UsageInfo
	denied                bool
	tools                 map[string]string // toolCallId → name
	// turnErr and partErr say why the turn failed: the turn's error, and
	// the last error part shown (which says more, and wins).
	turnErr, partErr string
	// lastText is the text part printed last: a page of a long reply
	// (a contentRef part) continues it.
	lastText string
}

// run sends the prompt and follows the turn to its end.
func (r *turnRun) run(ctx context.Context) int {
	session, chat, err := r.openSession(ctx)
	if err != nil {
		return r.fail(ctx, err)
	}
	r.session, r.chat, r.turnID, r.started, r.tools = session, chat, newUUID(), time.Now(), map[string]string{}
	turn := &ahpwire.ChatTurnStarted{TurnID: r.turnID, StartedAt: nowStamp(), Message: ahpwire.UserMessage(r.o.prompt)}
	if _, err := r.h.c.Dispatch(ctx, chat, turn); err != nil {
		return r.fail(ctx, fmt.Errorf("send the prompt: %w", err))
	}
	r.out.event("turn_started", "session", session, "chat", chat, "turnId", r.turnID)
	for {
		ev, ch, err := r.h.d.next(ctx)
		if err != nil {
			return r.fail(ctx, err)
		}
		if code, done := r.onEvent(ctx, ev, ch); done {
			return code
		}
	}
}

// fail maps an error to exec's exit code (cancelling the turn on a
// signal or a timeout).
func (r *turnRun) fail(ctx context.Context, err error) int {
	if sig := r.caught(); sig != nil || errors.Is(err, context.DeadlineExceeded) {
		r.cancelTurn()
		r.out.end("cancelled", r.elapsed(), r.usage, "interrupted")
		if sig != nil {
			return signalExitCode(sig)
		}
		printErr(r.std.err, "ahptui: exec: timed out\n")
		return execCancelled
	}
	r.h.log.Error("exec failed", "err", err)
	printErr(r.std.err, "ahptui: exec: %v\n", err)
	if errors.Is(err, errLinkFailed) {
		return execConnect
	}
	return execFailed
}

// cancelTurn asks the host to cancel the running turn (best effort).
func (r *turnRun) cancelTurn() {
	if r.turnID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	ms := r.elapsed()
	_, _ = r.h.c.Dispatch(ctx, r.chat, &ahpwire.ChatTurnCancelled{TurnID: r.turnID, Duration: &ms})
}

func (r *turnRun) elapsed() int64 { return time.Since(r.started).Milliseconds() }

// onEvent handles one event; done reports the end of the turn. What the
// turn did is what reducer.Derive finds between the chat's states in the
// driver's mirror before and after the event (ahpstate's reducer applied
// it), never the raw action; exec only presents it (turnshow.go).
func (r *turnRun) onEvent(ctx context.Context, ev ahpclient.Event, ch ahpstate.Change) (int, bool) {
	r.out.pump(false)         // the pages read since the last event
	var action ahpwire.Action // nil for a snapshot: Derive catches up
	switch e := ev.(type) {
	case ahpclient.NotificationEvent:
		if r.removed(e) {
			return r.interrupted("the session was disposed on the host (another client removed it)"), true
		}
	case ahpclient.ChannelLostEvent:
		if e.Channel == r.chat {
			return r.interrupted("the host no longer has the chat " + r.chat + " after the connection dropped (the host restarted?)"), true
		}
	case ahpclient.SnapshotEvent:
		// A snapshot that replaced the chat after a reconnect: a turn the
		// host no longer has was interrupted; otherwise the states before
		// and after tell what happened meanwhile (below).
		if e.Snapshot.Resource == r.chat && e.Reason != ahpclient.SnapshotSubscribe && ch.Channel == r.chat {
			if _, after, ok := ch.Chat(); ok && !holdsTurn(after, r.turnID) {
				return r.interrupted("the host no longer has this turn after the connection dropped (the host restarted?)"), true
			}
		}
	case ahpclient.EnvelopeEvent:
		if e.Envelope.Channel == r.chat && e.Envelope.RejectionReason != "" && e.Own {
			return r.fail(ctx, fmt.Errorf("the host rejected %s: %s", e.Envelope.Action.ActionType(), e.Envelope.RejectionReason)), true
		}
		action = e.Envelope.Action
	}
	if ch.Channel != r.chat {
		return 0, false
	}
	before, after, ok := ch.Chat()
	if !ok {
		return 0, false
	}
	if after.Activity != before.Activity {
		r.out.activity(after.Activity) // the agent's retries, as the TUI's status line shows them
	}
	return r.show(ctx, reducer.Derive(action, before, after))
}

// removed reports whether ev is the host's root/sessionRemoved of the
// turn's session: nothing more comes on its chat.
func (r *turnRun) removed(ev ahpclient.NotificationEvent) bool {
	var p ahpwire.SessionRemovedParams
	return ev.Method == ahpwire.MethodSessionRemoved && json.Unmarshal(ev.Params, &p) == nil && p.Session == r.session
}

// interrupted ends a turn whose reply stopped for good without an end
// from the host: what was received stays printed, the turn is marked
// interrupted, and exec exits 1 naming the cause.
func (r *turnRun) interrupted(cause string) int {
	r.out.end("interrupted", r.elapsed(), r.usage, cause)
	printErr(r.std.err, "ahptui: exec: the reply was interrupted: %s\n", sanitizeLine(cause))
	return execFailed
}

// holdsTurn reports whether cs has turn id, running or ended.
func holdsTurn(cs ahpwire.ChatState, id string) bool {
	if cs.ActiveTurn != nil && cs.ActiveTurn.ID == id {
		return true
	}
	for _, t := range cs.Turns {
		if t.ID == id {
			return true
		}
	}
	return false
}

// onEnd reports the end of the turn and returns exec's exit code.
func (r *turnRun) onEnd(end reducer.MessageEnd) int {
	d := r.elapsed()
	if end.Reported {
		d = end.Duration.Milliseconds()
	}
	switch end.Status {
	case reducer.StatusComplete:
		r.out.end("complete", d, r.usage, "")
		if r.denied {
			return execCancelled
		}
		return execCompleted
	case reducer.StatusCancelled:
		r.out.end("cancelled", d, r.usage, "")
		return execCancelled
	}
	msg := firstNonEmpty(r.partErr, r.turnErr, "the turn failed")
	r.out.end("error", d, r.usage, msg)
	printErr(r.std.err, "ahptui: exec: %s\n", sanitizeLine(msg))
	return execFailed
}

// onReady answers a tool call that needs approval, as --approve says.
func (r *turnRun) onReady(ctx context.Context, name string, tc ahpwire.ToolCallState) (int, bool) {
	var title string
	if tc.InvocationMessage != nil {
		title = tc.InvocationMessage.Text
	}
	if tc.ConfirmationTitle != nil && tc.ConfirmationTitle.Text != "" {
		title = tc.ConfirmationTitle.Text
	}
	ok, code, stop := r.decide(name, title)
	if stop {
		r.out.approval(tc.ToolCallID, name, title, "needs-input")
		return code, true
	}
	r.out.approval(tc.ToolCallID, name, title, map[bool]string{true: "approved", false: "denied"}[ok])
	c := &ahpwire.ChatToolCallConfirmed{TurnID: r.turnID, ToolCallID: tc.ToolCallID, Approved: ok}
	if ok {
		c.Confirmed = ahpwire.ConfirmedUserAction
	} else {
		c.Reason = ahpwire.CancelDenied
		r.denied = true
	}
	// An agent's own options: answer with its allow-once / reject-once.
	if o := ahpwire.OnceOption(tc.Options, map[bool]string{true: "approve", false: "deny"}[ok]); o != nil {
		c.SelectedOptionID = o.ID
	}
	if _, err := r.h.c.Dispatch(ctx, r.chat, c); err != nil {
		return r.fail(ctx, fmt.Errorf("answer the approval: %w", err)), true
	}
	return 0, false
}

// onComplete reports a tool result, confirming it when the host asks.
func (r *turnRun) onComplete(ctx context.Context, name string, tc ahpwire.ToolCallState) (int, bool) {
	ok := tc.Success != nil && *tc.Success
	status := "completed"
	if !ok {
		status = "failed"
	}
	r.out.tool(tc.ToolCallID, name, status, &ok)
	if tc.Status != ahpwire.ToolPendingResultConfirmation {
		return 0, false
	}
	approved, code, stop := r.decide(name, "use the result of "+name)
	if stop {
		return code, true
	}
	if !approved {
		r.denied = true
	}
	c := &ahpwire.ChatToolCallResultConfirmed{TurnID: r.turnID, ToolCallID: tc.ToolCallID, Approved: approved}
	if _, err := r.h.c.Dispatch(ctx, r.chat, c); err != nil {
		return r.fail(ctx, fmt.Errorf("answer the result confirmation: %w", err)), true
	}
	return 0, false
}

// decide applies --approve; ask reads the controlling terminal. stop is
// true (with execNeedsInput) when there is no terminal to ask on.
func (r *turnRun) decide(name, title string) (approved bool, code int, stop bool) {
	switch r.o.approve {
	case "always":
		return true, 0, false
	case "never":
		return false, 0, false
	}
	tty, err := openTTY()
	if err != nil {
		printErr(r.std.err, "ahptui: exec: %s needs approval and there is no terminal to ask (use --approve always|never)\n", sanitizeLine(name))
		return false, execNeedsInput, true
	}
	defer tty.Close()
	fmt.Fprintf(tty, "ahptui: approve %s — %s? [y/N] ", sanitizeLine(name), sanitizeLine(title))
	line, _ := bufio.NewReader(tty).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(line))
	return a == "y" || a == "yes", 0, false
}

// openTTY opens the controlling terminal for reading and writing.
func openTTY() (*os.File, error) {
	name := "/dev/tty"
	if os.PathSeparator == '\\' {
		name = "CONIN$"
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("open the terminal: %w", err)
	}
	return f, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
