package demo

import (
	"fmt"
	"path"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// outcome is one row of the /demo tools summary table.
type outcome struct{ tool, result string }

// tools runs "/demo tools": every tool-call state the protocol has.
//
//  1. list_files and read_file: real, read-only, confirmed "not-needed".
//  2. edit_file: pending-confirmation with a fileEdit diff; approve →
//     completed (simulated), deny → the client's denial cancels it.
//  3. run_command: pending-confirmation with options and a risk assessment;
//     approve → running with live output → pending-result-confirmation →
//     completed or result-denied; deny → cancelled.
func (r *run) tools() error {
	if err := r.streamReasoning("The user wants to see tool calls. I will look around with the read-only tools, " +
		"propose a small edit that needs approval, and then ask to run the tests, whose output also needs a review."); err != nil {
		return err
	}
	if err := r.streamMarkdown("Let me look at the project first.\n\n"); err != nil {
		return err
	}
	out, failure, err := r.listFilesTool(".")
	if err != nil {
		return err
	}
	l := newListing(out, failure)
	entries := l.entries
	var rows []outcome
	if failure != "" {
		rows = append(rows, outcome{ToolListFiles, "failed: " + failure})
	} else {
		rows = append(rows, outcome{ToolListFiles, plural(l.total(), "entry", "entries")})
	}

	target := pickTarget(entries)
	if err := r.streamMarkdown(fmt.Sprintf("I'll read %s.\n\n", inlineCode(target))); err != nil {
		return err
	}
	text, failure, err := r.readFileTool(target)
	if err != nil {
		return err
	}
	edit := newSimEdit(target, text, failure != "")
	if failure != "" {
		rows = append(rows, outcome{ToolReadFile, "failed: " + failure})
		edit = newSimEdit("NOTES.md", "", true)
	} else {
		rows = append(rows, outcome{ToolReadFile, fmt.Sprintf("%d bytes", len(text))})
	}

	row, err := r.editStep(edit)
	if err != nil {
		return err
	}
	rows = append(rows, row)
	row, err = r.commandStep(commandFor(entries))
	if err != nil {
		return err
	}
	rows = append(rows, row)

	var b strings.Builder
	b.WriteString("### Summary\n\n| Tool | Outcome |\n|---|---|\n")
	for _, o := range rows {
		fmt.Fprintf(&b, "| `%s` | %s |\n", o.tool, mdCell(o.result))
	}
	b.WriteString("\nNothing was written and no command was run: the edit and the command are simulated.\n")
	if err := r.streamMarkdown(b.String()); err != nil {
		return err
	}
	return r.complete()
}

// pickTarget chooses the file /demo tools reads and edits.
func pickTarget(entries []listEntry) string {
	for _, want := range []string{"README.md", "readme.md", "README", "go.mod", "package.json", "Cargo.toml", "Makefile"} {
		for _, e := range entries {
			if e.kind == "file" && e.name == want {
				return want
			}
		}
	}
	for _, e := range entries {
		if e.kind == "file" && !strings.HasPrefix(e.name, ".") && textExt[strings.ToLower(path.Ext(e.name))] {
			return e.name
		}
	}
	return "README.md"
}

// textExt are extensions /demo tools is willing to pick as a target.
var textExt = map[string]bool{".md": true, ".txt": true, ".go": true, ".py": true, ".js": true, ".ts": true,
	".rs": true, ".toml": true, ".yaml": true, ".yml": true, ".json": true, ".sh": true, ".c": true, ".h": true}

// commandFor chooses the test command for the project's build system.
func commandFor(entries []listEntry) string {
	has := func(n string) bool {
		for _, e := range entries {
			if e.name == n {
				return true
			}
		}
		return false
	}
	switch {
	case has("go.mod"):
		return "go test ./..."
	case has("package.json"):
		return "npm test"
	case has("Cargo.toml"):
		return "cargo test"
	}
	return "make test"
}

// isDecision reports whether a is the client's chat/toolCallConfirmed for id.
func (r *run) isDecision(id string) func(ahpwire.Action) bool {
	return func(a ahpwire.Action) bool {
		c, ok := a.(*ahpwire.ChatToolCallConfirmed)
		return ok && c.TurnID == r.t.TurnID && c.ToolCallID == id
	}
}

// denial describes a denied tool call for the answer.
func denial(c *ahpwire.ChatToolCallConfirmed) string {
	s := "denied"
	if c.Reason == ahpwire.CancelSkipped {
		s = "skipped"
	}
	if c.ReasonMessage != nil && c.ReasonMessage.Text != "" {
		s += " (" + shortPrompt(c.ReasonMessage.Text, 80) + ")"
	}
	return s
}

// editStep proposes the edit, waits for the decision and reports it.
func (r *run) editStep(e simEdit) (outcome, error) {
	row := outcome{tool: ToolEditFile}
	if err := r.streamMarkdown(fmt.Sprintf("I'd like to add a one-line note to %s. This changes a file, so it needs your approval.\n\n", inlineCode(e.path))); err != nil {
		return row, err
	}
	id := r.toolCallID(ToolEditFile)
	input := toolInputJSON(kv{"path", e.path}, kv{"insertAtLine", 1}, kv{"text", strings.SplitN(e.after, "\n", 2)[0]})
	inv := "Edit " + inlineCode(e.path)
	if err := r.startTool(toolSpec{id: id, name: ToolEditFile, display: "Edit file",
		intention: "Add a review note to " + e.path, input: input, invocation: inv}); err != nil {
		return row, err
	}
	if err := r.pause(r.opts.Pace); err != nil {
		return row, err
	}
	title := ahpwire.MarkdownText("Apply this edit to " + inlineCode(e.path) + "?")
	if err := r.emit(&ahpwire.ChatToolCallReady{TurnID: r.t.TurnID, ToolCallID: id,
		InvocationMessage: ahpwire.MarkdownText(inv), ToolInput: ahpwire.InlineInput(input),
		ConfirmationTitle: &title, Edits: &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{e.fileEdit(r.opts.Dir)}},
	}); err != nil {
		return row, err
	}
	a, err := r.await(r.isDecision(id))
	if err != nil {
		return row, err
	}
	c := a.(*ahpwire.ChatToolCallConfirmed)
	if !c.Approved {
		row.result = denial(c)
		return row, r.streamMarkdown(fmt.Sprintf("Okay — I won't edit %s. It stays exactly as it is.\n\n", inlineCode(e.path)))
	}
	if err := r.pause(r.opts.Pace * 3); err != nil {
		return row, err
	}
	r.outBytes += len(e.diff)
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: id, Result: ahpwire.ToolCallResult{
		Success:          true,
		PastTenseMessage: ahpwire.MarkdownText("Edited " + inlineCode(e.path) + " (simulated — the file was not changed)"),
		Content:          e.content(r.opts.Dir),
	}}); err != nil {
		return row, err
	}
	row.result = "approved, +1 −0 (simulated)"
	return row, r.streamMarkdown("Thanks — the note is in (simulated; the file on disk is untouched).\n\n")
}

// commandStep asks to run cmd, streams simulated output and asks for a
// review of the result.
func (r *run) commandStep(cmd string) (outcome, error) {
	row := outcome{tool: ToolRunCommand}
	if err := r.streamMarkdown(fmt.Sprintf("Next I want to run %s to check nothing broke.\n\n", inlineCode(cmd))); err != nil {
		return row, err
	}
	id := r.toolCallID(ToolRunCommand)
	input := toolInputJSON(kv{"command", cmd}, kv{"cwd", "."})
	inv := "Run " + inlineCode(cmd)
	if err := r.startTool(toolSpec{id: id, name: ToolRunCommand, display: "Run command",
		intention: "Run the tests", input: input, invocation: inv}); err != nil {
		return row, err
	}
	if err := r.pause(r.opts.Pace); err != nil {
		return row, err
	}
	title := ahpwire.MarkdownText("Run " + inlineCode(cmd) + " in the working directory?")
	reason := ahpwire.Plain("Runs the test suite: reads the project and writes only to build caches.")
	if err := r.emit(&ahpwire.ChatToolCallReady{TurnID: r.t.TurnID, ToolCallID: id,
		InvocationMessage: ahpwire.MarkdownText(inv), ToolInput: ahpwire.InlineInput(input), ConfirmationTitle: &title,
		RiskAssessment: &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Reason: &reason, Safety: ahpwire.Ptr(0.85)},
		Options: []ahpwire.ConfirmationOption{
			{ID: "run-once", Label: "Run once", Kind: "approve"},
			{ID: "dont-run", Label: "Don't run", Kind: "deny"},
		},
	}); err != nil {
		return row, err
	}
	a, err := r.await(r.isDecision(id))
	if err != nil {
		return row, err
	}
	c := a.(*ahpwire.ChatToolCallConfirmed)
	if !c.Approved {
		row.result = denial(c)
		return row, r.streamMarkdown(fmt.Sprintf("Understood — I won't run %s. You can run it yourself whenever you like.\n\n", inlineCode(cmd)))
	}
	output := simulatedOutput(cmd, r.seed)
	var shown strings.Builder
	for _, line := range output {
		if err := r.pause(r.opts.Pace * 2); err != nil {
			return row, err
		}
		shown.WriteString(line)
		if err := r.emit(&ahpwire.ChatToolCallContentChanged{TurnID: r.t.TurnID, ToolCallID: id,
			Content: []ahpwire.ToolResultContent{ahpwire.TextContent(shown.String())}}); err != nil {
			return row, err
		}
	}
	r.outBytes += shown.Len()
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: id, RequiresResultConfirmation: true,
		Result: ahpwire.ToolCallResult{Success: true,
			PastTenseMessage: ahpwire.MarkdownText("Ran " + inlineCode(cmd) + " (simulated)"),
			Content:          []ahpwire.ToolResultContent{ahpwire.TextContent(shown.String())}}}); err != nil {
		return row, err
	}
	if err := r.streamMarkdown("The command finished. Please review its output before I use it.\n\n"); err != nil {
		return row, err
	}
	a, err = r.await(func(a ahpwire.Action) bool {
		c, ok := a.(*ahpwire.ChatToolCallResultConfirmed)
		return ok && c.TurnID == r.t.TurnID && c.ToolCallID == id
	})
	if err != nil {
		return row, err
	}
	if !a.(*ahpwire.ChatToolCallResultConfirmed).Approved {
		row.result = "ran, output rejected"
		return row, r.streamMarkdown("Got it — I'll disregard that output and won't draw conclusions from it.\n\n")
	}
	row.result = "ran, output accepted (simulated)"
	return row, r.streamMarkdown("All tests pass, so the change is safe.\n\n")
}

// simulatedOutput is the fake output of cmd, one line per live update.
func simulatedOutput(cmd string, seed uint64) []string {
	ms := func(salt uint64) string {
		return fmt.Sprintf("%d.%03ds", 0, 10+pick(seed, salt, []int{12, 37, 81, 154, 203, 418}))
	}
	switch cmd {
	case "go test ./...":
		return []string{"ok  \t./ahpwire\t" + ms(20) + "\n", "ok  \t./segment\t" + ms(21) + "\n", "ok  \t./reducer\t" + ms(22) + "\n", "PASS\n"}
	case "npm test":
		return []string{"> test\n", "  ✓ renders (" + ms(20) + ")\n", "  ✓ reconnects (" + ms(21) + ")\n", "2 passing\n"}
	case "cargo test":
		return []string{"running 3 tests\n", "test parse ... ok\n", "test render ... ok\n", "test result: ok. 3 passed; 0 failed\n"}
	}
	return []string{"make: running tests\n", "test 1 ... ok\n", "test 2 ... ok\n", "all tests passed\n"}
}
