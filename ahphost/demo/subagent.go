package demo

import (
	"github.com/ahptui/ahptui/ahphost/agent"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// SubagentRequest asks the host for a child chat (agent.SubagentRequest).
type SubagentRequest = agent.SubagentRequest

// SubagentHandle is a running subagent (agent.SubagentHandle).
type SubagentHandle = agent.SubagentHandle

// SubagentFunc starts a subagent; the host implements it (Turn.Subagent).
type SubagentFunc = agent.SubagentFunc

// Background work ids of "/demo subagent" (unique per turn).
func (r *run) shellWorkID() string { return r.t.TurnID + ".shell" }
func (r *run) subWorkID() string   { return r.t.TurnID + ".subagent" }

// subagent runs "/demo subagent": a background shell plus a subagent in a
// child chat; the parent waits for the child, then reports.
func (r *run) subagent() error {
	if r.t.Subagent == nil {
		return r.answerOnly("This host cannot start subagents, so `/demo subagent` has nothing to show here.\n")
	}
	if err := r.streamReasoning("Two things can run at once: the test suite in a background shell, and a subagent surveying the files."); err != nil {
		return err
	}
	now := isoTime(r.opts.Now())
	if err := r.emit(&ahpwire.ChatBackgroundWorkSet{Work: ahpwire.BackgroundWork{
		Kind: "shell", ID: r.shellWorkID(), Label: "Test suite (simulated)", StartedAt: now, Command: "go test ./...",
	}}); err != nil {
		return err
	}
	if err := r.streamMarkdown("Started the test suite in a background shell. Delegating a file survey to a subagent…\n\n"); err != nil {
		return err
	}
	spec := toolSpec{
		id: r.toolCallID("subagent"), name: "subagent", display: "Subagent",
		intention:  "Survey the working directory in a child chat",
		input:      toolInputJSON(kv{"task", "Survey the files in the working directory"}),
		invocation: "Running a subagent: file survey",
	}
	if err := r.startRunningTool(spec); err != nil {
		return err
	}
	h, err := r.t.Subagent(r.ctx, SubagentRequest{ToolCallID: spec.id, Title: "Subagent: file survey",
		Prompt: "Survey the files in the working directory and summarise them."})
	if err != nil {
		return r.finishSubagentFailed(spec, err)
	}
	link := ahpwire.ToolResultContent{Type: ahpwire.ContentSubagent, Resource: h.Chat, Title: "Subagent: file survey",
		AgentName: ProviderID, Description: "Surveys the working directory"}
	if err := r.emit(&ahpwire.ChatToolCallContentChanged{TurnID: r.t.TurnID, ToolCallID: spec.id,
		Content: []ahpwire.ToolResultContent{link}}); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatBackgroundWorkSet{Work: ahpwire.BackgroundWork{
		Kind: "subagent", ID: r.subWorkID(), Label: "Subagent: file survey", StartedAt: now, Chat: h.Chat,
	}}); err != nil {
		return err
	}
	if err := r.waitDone(h.Done); err != nil {
		return err
	}
	if err := r.pause(r.lingerTime()); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatBackgroundWorkRemoved{ID: r.subWorkID()}); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: spec.id, Result: ahpwire.ToolCallResult{
		Success: true, PastTenseMessage: ahpwire.MarkdownText("Subagent finished the file survey"),
		Content: []ahpwire.ToolResultContent{link},
	}}); err != nil {
		return err
	}
	if err := r.pause(r.lingerTime()); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatBackgroundWorkRemoved{ID: r.shellWorkID()}); err != nil {
		return err
	}
	return r.answerOnly("The subagent's survey is in its own chat (open it from the tool call or the background list). " +
		"The background test suite finished too: all tests passed (simulated).\n")
}

// finishSubagentFailed ends the subagent tool call as failed and the turn.
func (r *run) finishSubagentFailed(spec toolSpec, cause error) error {
	msg := "could not start the subagent: " + cause.Error()
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: spec.id, Result: ahpwire.ToolCallResult{
		Success: false, PastTenseMessage: ahpwire.MarkdownText("Subagent failed to start"),
		Error: &ahpwire.ToolError{Message: msg},
	}}); err != nil {
		return err
	}
	if err := r.emit(&ahpwire.ChatBackgroundWorkRemoved{ID: r.shellWorkID()}); err != nil {
		return err
	}
	return r.answerOnly("The subagent did not start (" + msg + ").\n")
}

// waitDone waits until done is closed, steering and other client actions
// being recorded meanwhile.
func (r *run) waitDone(done <-chan struct{}) error {
	for {
		select {
		case <-done:
			return nil
		case <-r.ctx.Done():
			return r.ctx.Err()
		case a, ok := <-r.t.Client:
			if !ok {
				return ErrClientClosed
			}
			r.noteDraft(a)
			if !r.noteSteering(a) && a != nil {
				r.backlog = append(r.backlog, a)
			}
		}
	}
}

// isoTime formats t as AHP's ISO-8601 timestamp (UTC, milliseconds).
func isoTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// lingerTime keeps finished background work listed long enough to be seen
// and opened in an interactive session (none when streaming instantly).
func (r *run) lingerTime() time.Duration {
	if r.opts.Pace <= 0 {
		return 0
	}
	return max(40*r.opts.Pace, 8*time.Second)
}
