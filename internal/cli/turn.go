package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// turnRun is one `ahptui exec` turn.
type turnRun struct {
	h      *headless
	o      execOpts
	std    stdio
	out    *eventWriter
	caught func() os.Signal

	chat, turnID string
	started      time.Time
	usage        *ahpwire.UsageInfo
	denied       bool
	tools        map[string]string // toolCallId → name
}

// run sends the prompt and follows the turn to its end.
func (r *turnRun) run(ctx context.Context) int {
	session, chat, err := r.openSession(ctx)
	if err != nil {
		return r.fail(ctx, err)
	}
	r.chat, r.turnID, r.started, r.tools = chat, newUUID(), time.Now(), map[string]string{}
	turn := &ahpwire.ChatTurnStarted{TurnID: r.turnID, StartedAt: nowStamp(), Message: ahpwire.UserMessage(r.o.prompt)}
	if _, err := r.h.c.Dispatch(ctx, chat, turn); err != nil {
		return r.fail(ctx, fmt.Errorf("send the prompt: %w", err))
	}
	r.out.event("turn_started", "session", session, "chat", chat, "turnId", r.turnID)
	for {
		ev, _, err := r.h.d.next(ctx)
		if err != nil {
			return r.fail(ctx, err)
		}
		if code, done := r.onEvent(ctx, ev); done {
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

// onEvent handles one event; done reports the end of the turn.
func (r *turnRun) onEvent(ctx context.Context, ev ahpclient.Event) (int, bool) {
	e, ok := ev.(ahpclient.EnvelopeEvent)
	if !ok {
		if l, ok := ev.(ahpclient.ChannelLostEvent); ok && l.Channel == r.chat {
			return r.fail(ctx, fmt.Errorf("the host lost the chat %s", r.chat)), true
		}
		return 0, false
	}
	if e.Envelope.Channel != r.chat {
		return 0, false
	}
	if e.Envelope.RejectionReason != "" && e.Own {
		return r.fail(ctx, fmt.Errorf("the host rejected %s: %s", e.Envelope.Action.ActionType(), e.Envelope.RejectionReason)), true
	}
	switch a := e.Envelope.Action.(type) {
	case *ahpwire.ChatDelta:
		if a.TurnID == r.turnID {
			r.out.text(a.PartID, a.Content)
		}
	case *ahpwire.ChatReasoning:
		if a.TurnID == r.turnID {
			r.out.event("reasoning", "partId", a.PartID, "text", a.Content)
		}
	case *ahpwire.ChatResponsePart:
		if a.TurnID == r.turnID {
			r.onPart(a.Part)
		}
	case *ahpwire.ChatToolCallStart:
		if a.TurnID == r.turnID {
			r.tools[a.ToolCallID] = a.DisplayName
			r.out.tool(a.ToolCallID, a.DisplayName, "started", nil)
		}
	case *ahpwire.ChatToolCallReady:
		if a.TurnID == r.turnID {
			return r.onReady(ctx, a)
		}
	case *ahpwire.ChatToolCallComplete:
		if a.TurnID == r.turnID {
			return r.onComplete(ctx, a)
		}
	case *ahpwire.ChatInputRequested:
		r.out.input(a.Request)
		printErr(r.std.err, "ahptui: exec: the host needs input (%s); answer it in the UI: ahptui, then open the session\n",
			firstNonEmpty(a.Request.Message, "a question"))
		return execNeedsInput, true
	case *ahpwire.ChatUsage:
		if a.TurnID == r.turnID {
			u := a.Usage
			r.usage = &u
		}
	case *ahpwire.ChatTurnComplete:
		if a.TurnID == r.turnID {
			r.out.end("complete", durationOr(a.Duration, r.elapsed()), r.usage, "")
			if r.denied {
				return execCancelled, true
			}
			return execCompleted, true
		}
	case *ahpwire.ChatTurnCancelled:
		if a.TurnID == r.turnID {
			r.out.end("cancelled", durationOr(a.Duration, r.elapsed()), r.usage, "")
			return execCancelled, true
		}
	case *ahpwire.ChatError:
		if a.TurnID == r.turnID {
			msg := "the turn failed"
			if p := a.ErrorPart(); p.Error != nil {
				msg = p.Error.Message
			}
			r.out.end("error", durationOr(a.Duration, r.elapsed()), r.usage, msg)
			printErr(r.std.err, "ahptui: exec: %s\n", sanitizeLine(msg))
			return execFailed, true
		}
	}
	return 0, false
}

// onPart prints a whole response part.
func (r *turnRun) onPart(p ahpwire.ResponsePart) {
	switch p.Kind {
	case ahpwire.PartMarkdown:
		r.out.text(p.ID, p.Content)
	case ahpwire.PartReasoning:
		r.out.event("reasoning", "partId", p.ID, "text", p.Content)
	case ahpwire.PartToolCall:
		if p.ToolCall != nil {
			r.tools[p.ToolCall.ToolCallID] = p.ToolCall.DisplayName
			r.out.tool(p.ToolCall.ToolCallID, p.ToolCall.DisplayName, "started", nil)
		}
	}
}

// onReady answers a tool call that needs approval, as --approve says.
func (r *turnRun) onReady(ctx context.Context, a *ahpwire.ChatToolCallReady) (int, bool) {
	name := firstNonEmpty(r.tools[a.ToolCallID], a.ToolCallID)
	if a.Confirmed != "" {
		r.out.tool(a.ToolCallID, name, "running", nil)
		return 0, false
	}
	title := a.InvocationMessage.Text
	if a.ConfirmationTitle != nil && a.ConfirmationTitle.Text != "" {
		title = a.ConfirmationTitle.Text
	}
	ok, code, stop := r.decide(name, title)
	if stop {
		r.out.approval(a.ToolCallID, name, title, "needs-input")
		return code, true
	}
	r.out.approval(a.ToolCallID, name, title, map[bool]string{true: "approved", false: "denied"}[ok])
	c := &ahpwire.ChatToolCallConfirmed{TurnID: r.turnID, ToolCallID: a.ToolCallID, Approved: ok}
	if ok {
		c.Confirmed = ahpwire.ConfirmedUserAction
	} else {
		c.Reason = ahpwire.CancelDenied
		r.denied = true
	}
	if _, err := r.h.c.Dispatch(ctx, r.chat, c); err != nil {
		return r.fail(ctx, fmt.Errorf("answer the approval: %w", err)), true
	}
	return 0, false
}

// onComplete reports a tool result, confirming it when the host asks.
func (r *turnRun) onComplete(ctx context.Context, a *ahpwire.ChatToolCallComplete) (int, bool) {
	name := firstNonEmpty(r.tools[a.ToolCallID], a.ToolCallID)
	status := "completed"
	if !a.Result.Success {
		status = "failed"
	}
	ok := a.Result.Success
	r.out.tool(a.ToolCallID, name, status, &ok)
	if !a.RequiresResultConfirmation {
		return 0, false
	}
	approved, code, stop := r.decide(name, "use the result of "+name)
	if stop {
		return code, true
	}
	if !approved {
		r.denied = true
	}
	c := &ahpwire.ChatToolCallResultConfirmed{TurnID: r.turnID, ToolCallID: a.ToolCallID, Approved: approved}
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

func durationOr(d *int64, fallback int64) int64 {
	if d != nil {
		return *d
	}
	return fallback
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
