package demo

import (
	"fmt"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// scriptFlood is "/demo flood N": a terminal that prints N bytes as fast
// as the host takes them, as `cat` of a huge log does: the clients keep
// the terminal's last output (ahpstate.MaxTerminalOutputBytes) and their
// memory stays bounded while it streams (issue 32). It follows
// scriptCode so the scripts' iota block stays as it is.
const scriptFlood = scriptCode + 1

// MaxFlood caps /demo flood N (1 GiB).
const MaxFlood = 1 << 30

// floodChunk is the size of one terminal output action of /demo flood, as
// the ACP bridge reads a pty.
const floodChunk = 32 << 10

// parseFlood reads "/demo flood N" (suffixes as /demo big, up to MaxFlood).
func parseFlood(args []string) command {
	c := command{script: scriptFlood}
	if len(args) == 0 {
		c.bad = "missing size: use `/demo flood N` (bytes, e.g. `/demo flood 64m`)"
		return c
	}
	n, err := ParseSize(args[0])
	switch {
	case err != nil:
		c.word, c.bad = args[0], err.Error()
	case n < 1 || n > MaxFlood:
		c.word, c.bad = args[0], fmt.Sprintf("size must be from 1 to %d bytes (1 GiB)", MaxFlood)
	default:
		c.n = n
	}
	return c
}

// floodLines is one chunk of coloured numbered lines, about floodChunk
// bytes, starting at line first; it returns the next line number.
func floodLines(b *strings.Builder, first int) int {
	b.Reset()
	i := first
	for b.Len() < floodChunk-100 {
		fmt.Fprintf(b, "\x1b[3%dm%8d\x1b[0m flooding the terminal with ordinary log output\r\n", i%8, i)
		i++
	}
	return i
}

// flood runs "/demo flood N".
func (r *run) flood() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("flood", r.cmd.word, r.cmd.bad))
	}
	ch := r.t.Channels
	if ch == nil {
		return r.answerOnly(noChannels)
	}
	uri := TerminalURI(r.t.Chat, r.t.TurnID, "flood")
	const title = "flood"
	spec := toolSpec{
		id: r.toolCallID("run_in_terminal"), name: "run_in_terminal", display: "Run in terminal",
		intention:  fmt.Sprintf("Print %d bytes", r.cmd.n),
		input:      toolInputJSON(kv{"command", "flood"}, kv{"isPty", true}),
		invocation: "Running `flood`",
		pastTense:  "Ran `flood`",
	}
	if err := r.startRunningTool(spec); err != nil {
		return err
	}
	ch.OpenTerminal(uri, ahpwire.TerminalState{
		Title: title, Cols: ahpwire.Ptr[int64](100), Rows: ahpwire.Ptr[int64](30), Cwd: "file:///home/demo/project",
		Claim: ahpwire.TerminalClaim{Kind: ahpwire.ClaimSession, Session: r.t.Chat, TurnID: r.t.TurnID, ToolCallID: spec.id},
	})
	term := ahpwire.ToolResultContent{Type: ahpwire.ContentTerminal, Resource: uri, Title: title, IsPty: ahpwire.Ptr(true)}
	if err := r.emit(&ahpwire.ChatToolCallContentChanged{TurnID: r.t.TurnID, ToolCallID: spec.id,
		Content: []ahpwire.ToolResultContent{term}}); err != nil {
		return err
	}
	var b strings.Builder
	line := 1
	for sent := 0; sent < r.cmd.n; {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		line = floodLines(&b, line)
		s := b.String()
		if rest := r.cmd.n - sent; len(s) > rest {
			s = s[:rest]
		}
		ch.Terminal(uri, &ahpwire.TerminalData{Data: s})
		sent += len(s)
	}
	last := fmt.Sprintf("flood: %d bytes", r.cmd.n)
	ch.Terminal(uri, &ahpwire.TerminalData{Data: "\r\n" + last + "\r\n"})
	if err := r.endTerminal(spec, term, 0, last); err != nil {
		return err
	}
	if err := r.streamMarkdown(fmt.Sprintf("The terminal printed %d bytes.\n", r.cmd.n)); err != nil {
		return err
	}
	return r.complete()
}
