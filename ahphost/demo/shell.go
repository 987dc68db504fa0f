package demo

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Variants of /demo shell (command.n).
const (
	shellDetect = iota // pty with command detection (the default)
	shellPty           // pty, raw stream without command detection
	shellPlain         // isPty false: plain text output
)

// parseShell reads "/demo shell [pty|plain]".
func parseShell(args []string) command {
	c := command{script: scriptShell, n: shellDetect}
	if len(args) == 0 {
		return c
	}
	switch strings.ToLower(args[0]) {
	case "pty":
		c.n = shellPty
	case "plain":
		c.n = shellPlain
	default:
		c.word, c.bad = args[0], "the variant must be `pty` or `plain` (or nothing)"
	}
	return c
}

// shell runs "/demo shell": a run_in_terminal tool call whose output
// streams on an ahp-terminal: channel. No command is really executed.
func (r *run) shell() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("shell", r.cmd.word, r.cmd.bad))
	}
	ch := r.t.Channels
	if ch == nil {
		return r.answerOnly(noChannels)
	}
	variant := r.cmd.n
	pty := variant != shellPlain
	detect := variant == shellDetect
	steps := shellSteps(pty)
	uri := TerminalURI(r.t.Chat, r.t.TurnID, "shell")
	title := "bash"
	if !pty {
		title = "sh (no pty)"
	}
	lines := make([]string, len(steps))
	for i, s := range steps {
		lines[i] = s.line
	}
	spec := toolSpec{
		id: r.toolCallID("run_in_terminal"), name: "run_in_terminal", display: "Run in terminal",
		intention:  "Build, list and test the project",
		input:      toolInputJSON(kv{"command", strings.Join(lines, " && ")}, kv{"isPty", pty}),
		invocation: "Running `" + strings.Join(lines, " && ") + "`",
		pastTense:  "Ran `" + strings.Join(lines, " && ") + "`",
	}
	if err := r.startRunningTool(spec); err != nil {
		return err
	}
	ch.OpenTerminal(uri, ahpwire.TerminalState{
		Title: title, Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30), Cwd: "file:///home/demo/project",
		Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: r.t.Chat, TurnID: r.t.TurnID, ToolCallID: spec.id},
	})
	term := ahpwire.ToolResultContent{Type: ahpwire.ContentTerminal, Resource: uri, Title: title, IsPty: ahpwire.Ptr(pty)}
	if err := r.emit(&ahpwire.ChatToolCallContentChanged{TurnID: r.t.TurnID, ToolCallID: spec.id,
		Content: []ahpwire.ToolResultContent{term}}); err != nil {
		return err
	}
	if detect {
		ch.Terminal(uri, &ahpwire.TerminalCommandDetectionAvailable{})
	}
	exit, last, err := r.runSteps(uri, steps, pty, detect)
	if err != nil {
		return err
	}
	if err := r.endTerminal(spec, term, exit, last); err != nil {
		return err
	}
	if err := r.streamMarkdown(shellSummary(variant, exit)); err != nil {
		return err
	}
	return r.complete()
}

// endTerminal ends the terminal term shows with exit and completes the
// tool call spec with it (last: the terminal's last line of output).
func (r *run) endTerminal(spec toolSpec, term ahpwire.ToolResultContent, exit int64, last string) error {
	r.t.Channels.Terminal(term.Resource, &ahpwire.TerminalExited{ExitCode: ahpwire.Ptr(exit)})
	term.Result = &ahpwire.TerminalCommandResult{ExitCode: ahpwire.Ptr(int(exit)), Preview: last}
	res := ahpwire.ToolCallResult{Success: exit == 0, PastTenseMessage: ahpwire.MarkdownText(spec.pastTense),
		Content: []ahpwire.ToolResultContent{term}}
	if exit != 0 {
		res.Error = &ahpwire.ToolError{Message: fmt.Sprintf("exit code %d", exit)}
	}
	return r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: spec.id, Result: res})
}

// runSteps prints each step on the terminal, pacing the chunks, and returns
// the last exit code and the last lines of output (plain text).
func (r *run) runSteps(uri string, steps []shellStep, pty, detect bool) (int64, string, error) {
	ch := r.t.Channels
	var exit int64
	var lastOut string
	for i, s := range steps {
		if err := r.pause(r.opts.Pace); err != nil {
			return 0, "", err
		}
		ch.Terminal(uri, &ahpwire.TerminalData{Data: prompt(pty) + s.line + "\r\n"})
		id := fmt.Sprintf("%s.cmd%d", r.t.TurnID, i+1)
		started := r.opts.Now()
		if detect {
			ch.Terminal(uri, &ahpwire.TerminalCommandExecuted{CommandID: id, CommandLine: s.line, Timestamp: started.UnixMilli()})
		}
		for _, c := range s.chunks {
			if err := r.pause(r.opts.SlowPace); err != nil { // slow enough to watch
				return 0, "", err
			}
			ch.Terminal(uri, &ahpwire.TerminalData{Data: c})
		}
		if detect {
			d := max(r.opts.Now().Sub(started).Milliseconds(), 0)
			ch.Terminal(uri, &ahpwire.TerminalCommandFinished{CommandID: id, ExitCode: ahpwire.Ptr(s.exit), DurationMs: &d})
		}
		exit = s.exit
		lastOut = strings.Join(s.chunks, "")
	}
	ch.Terminal(uri, &ahpwire.TerminalData{Data: prompt(pty)})
	return exit, tailLines(stripSGR(lastOut), 3), nil
}

// tailLines returns the last n non-empty lines of s.
func tailLines(s string, n int) string {
	ls := strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// stripSGR removes the SGR sequences the scripted output uses.
func stripSGR(s string) string {
	for _, sgr := range []string{sgrReset, sgrBold, sgrRed, sgrGreen, sgrYellow, sgrCyan} {
		s = strings.ReplaceAll(s, sgr, "")
	}
	return s
}

// shellSummary is the answer after the terminal finished.
func shellSummary(variant int, exit int64) string {
	kind := map[int]string{
		shellDetect: "a pty with command detection (each command has its own status)",
		shellPty:    "a pty without command detection (one raw stream)",
		shellPlain:  "a plain pipe without a pty (`isPty: false`, no escape sequences)",
	}[variant]
	return fmt.Sprintf("The terminal ran in %s. The build and the listing of %d lines succeeded; "+
		"`go test` failed in `TestDiff`, so the session ended with exit code %d.\n\n"+
		"Try `/demo shell`, `/demo shell pty` and `/demo shell plain` to compare.\n", kind, ShellLines, exit)
}
