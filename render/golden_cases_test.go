package render

import (
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// Fixtures: one message per block kind and state, built through the
// reducer's public actions.

var t0 = time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC)

const mid = "turn-1"

func startState() reducer.State {
	return reducer.Reduce(reducer.State{}, reducer.MessageStart{ID: mid, TurnID: mid, StartedAt: t0})
}

func apply(s reducer.State, a ...reducer.Action) reducer.State { return reducer.ReduceAll(s, a...) }

// msgOf returns the current message, or the last finished one.
func msgOf(s reducer.State) *reducer.Message {
	if s.Current != nil {
		return s.Current
	}
	return s.Messages[len(s.Messages)-1]
}

func endMsg(status reducer.MessageStatus, d time.Duration) reducer.Action {
	return reducer.MessageEnd{MessageID: mid, Status: status, Duration: d}
}

func toolStart(tc ahpwire.ToolCallState) reducer.Action {
	return reducer.BlockStart{MessageID: mid, Kind: reducer.KindToolCall, Tool: &tc}
}

// toolUpdate moves block i to tool call state tc (as the reducer is told
// when AHP's state of the call changed).
func toolUpdate(i int, tc ahpwire.ToolCallState) reducer.Action {
	return reducer.BlockUpdate{Index: i, BlockStart: reducer.BlockStart{MessageID: mid, Kind: reducer.KindToolCall, Tool: &tc}}
}

// inputStart starts an input request block.
func inputStart(req ahpwire.ChatInputRequest, response string) reducer.Action {
	return reducer.BlockStart{MessageID: mid, Kind: reducer.KindInputRequest, Input: &req, Response: response}
}

func textStart(id, text string) reducer.Action {
	return reducer.BlockStart{MessageID: mid, BlockID: id, Kind: reducer.KindText, Text: text}
}

func thinkStart(id, text string, redacted bool) reducer.Action {
	return reducer.BlockStart{MessageID: mid, BlockID: id, Kind: reducer.KindThinking, Text: text, Redacted: redacted}
}

// rich is a markdown StringOrMarkdown, as hosts send tool messages.
func rich(s string) *ahpwire.StringOrMarkdown {
	return &ahpwire.StringOrMarkdown{Text: s, Markdown: true}
}
func intp(i int) *int        { return &i }
func f64(f float64) *float64 { return &f }

// goldenCase is one rendering scenario. prep, when set, renders earlier
// states first (at earlier times) so that durations are known.
type goldenCase struct {
	name string
	msg  *reducer.Message
	view ViewOpts
	prep func(r *Renderer, width int)
}

const thinkingText = "The user wants a list of files. I should run `ls` in the workspace root first, " +
	"then look at the README to see how the project is laid out.\n\nPlan:\n1. list files\n2. read README.md\n3. summarise the layout for the user"

const answerMD = "# Layout\n\nThe project has **three** packages:\n\n- `reducer` — pure state\n- `render` — drawing\n  - markdown\n- `tui` — the app\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\n| pkg | lines |\n|-----|-------|\n| reducer | 3182 |\n| render | 2400 |\n\n> Keep files small.\n"

func baseTool(status string) ahpwire.ToolCallState {
	return ahpwire.ToolCallState{
		ToolCallID: "tc1", Status: status, ToolName: "bash", DisplayName: "Run command",
		InvocationMessage: rich("Run `ls -la`"),
		ToolInput:         ahpwire.InlineInput(`{"command":"ls -la","cwd":"/work"}`),
	}
}

func completedTool(success bool, content ...ahpwire.ToolResultContent) ahpwire.ToolCallState {
	tc := baseTool(ahpwire.ToolCompleted)
	tc.Confirmed = ahpwire.ConfirmedUserAction
	tc.Content = content
	tc.Success, tc.PastTenseMessage = &success, rich("Ran `ls -la`")
	if !success {
		tc.PastTenseMessage = ahpwire.PlainPtr("Command failed")
		tc.Error = &ahpwire.ToolError{Message: "exit status 2", Code: "E_EXIT"}
	}
	return tc
}

var (
	editBefore = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n"
	editAfter  = "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tfmt.Println(\"hello\", os.Args)\n}\n"
	resources  = map[string]string{"mem:/before/main.go": editBefore, "mem:/after/main.go": editAfter}
)

func fileEdit() *ahpwire.FileEdit {
	return &ahpwire.FileEdit{
		Before: &ahpwire.FileEditSide{URI: "file:///work/main.go", Content: ahpwire.ContentRef{URI: "mem:/before/main.go"}},
		After:  &ahpwire.FileEditSide{URI: "file:///work/main.go", Content: ahpwire.ContentRef{URI: "mem:/after/main.go"}},
		Diff:   &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr[int64](5), Removed: ahpwire.Ptr[int64](2)},
	}
}

// editContent is a file edit as a tool result item.
func editContent(e *ahpwire.FileEdit) ahpwire.ToolResultContent {
	return ahpwire.ToolResultContent{Type: ahpwire.ContentFileEdit, Before: e.Before, After: e.After, Diff: e.Diff}
}

// terminalContent is a terminal run as a tool result item.
func terminalContent(resource, title string, res ahpwire.TerminalCommandResult) ahpwire.ToolResultContent {
	return ahpwire.ToolResultContent{Type: ahpwire.ContentTerminal, Resource: resource, Title: title, Result: &res}
}

func allContent() []ahpwire.ToolResultContent {
	return []ahpwire.ToolResultContent{
		{Type: ahpwire.ContentText, Text: "total 12\nREADME.md\nmain.go"},
		terminalContent("ahp-terminal:/t1", "ls -la", ahpwire.TerminalCommandResult{
			Preview: "drwxr-xr-x\t2\troot\t.\n-rw-r--r--\t1\troot\tmain.go\n", ExitCode: intp(0)}),
		editContent(fileEdit()),
		{Type: ahpwire.ContentResource, URI: "file:///work/README.md", ContentType: "text/markdown", SizeHint: ahpwire.Ptr[int64](2048)},
		{Type: ahpwire.ContentEmbeddedResource, Data: "aGVsbG8gZnJvbSBhbiBlbWJlZGRlZCByZXNvdXJjZQo=", ContentType: "text/plain"},
		{Type: ahpwire.ContentSubagent, Resource: "ahp-chat:/worker-7", Title: "Index the repository", AgentName: "explorer",
			Description: "Builds a symbol index."},
	}
}

func expand(m *reducer.Message, idx ...int) map[BlockKey]bool {
	e := map[BlockKey]bool{}
	for _, i := range idx {
		e[BlockKey{MessageID: m.ID, Index: i}] = true
	}
	return e
}

// goldenCases returns every block kind in every state the renderer draws.
func goldenCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, m *reducer.Message, v ViewOpts, prep func(*Renderer, int)) {
		cs = append(cs, goldenCase{name: name, msg: m, view: v, prep: prep})
	}
	now := t0.Add(3 * time.Second)

	// User messages.
	us := apply(reducer.State{}, reducer.UserMessage{TurnID: mid, Text: "List the files\tand explain the layout, please.\nThanks!",
		Attachments: []reducer.Attachment{{Type: "resource", Label: "main.go", URI: "file:///work/main.go"}}})
	add("user", msgOf(us), ViewOpts{}, nil)
	ua := apply(reducer.State{}, reducer.UserMessage{TurnID: mid, Text: "Scheduled run", Origin: "automation"})
	add("user_automation", msgOf(ua), ViewOpts{}, nil)

	// Markdown text.
	open := apply(startState(), textStart("m1", answerMD[:len(answerMD)/2+10]))
	add("text_streaming", msgOf(open), ViewOpts{Now: now}, nil)
	done := apply(startState(), textStart("m1", answerMD), endMsg(reducer.StatusComplete, 0))
	add("text_done", msgOf(done), ViewOpts{}, nil)

	// Thinking.
	thOpen := apply(startState(), thinkStart("r1", thinkingText, false))
	thDone := apply(thOpen, reducer.BlockEnd{MessageID: mid, Index: 0})
	seeOpen := func(r *Renderer, w int) { r.RenderMessage(msgOf(thOpen), w, ViewOpts{Now: t0}) }
	add("thinking_collapsed_live", msgOf(thOpen), ViewOpts{Now: now}, seeOpen)
	add("thinking_collapsed_done", msgOf(thDone), ViewOpts{Now: t0.Add(12 * time.Second)}, seeOpen)
	add("thinking_collapsed_history", msgOf(thDone), ViewOpts{Now: now}, nil)
	add("thinking_tail_live", msgOf(thOpen), ViewOpts{Thinking: ThinkingTail, Now: now}, seeOpen)
	add("thinking_tail_done", msgOf(thDone), ViewOpts{Thinking: ThinkingTail, Now: t0.Add(12 * time.Second)}, seeOpen)
	add("thinking_full_live", msgOf(thOpen), ViewOpts{Thinking: ThinkingFull, Now: now}, seeOpen)
	add("thinking_full_done", msgOf(thDone), ViewOpts{Thinking: ThinkingFull}, nil)
	add("thinking_expanded", msgOf(thDone), ViewOpts{Expanded: expand(msgOf(thDone), 0)}, nil)
	rdOpen := apply(startState(), thinkStart("r1", "", true))
	rdDone := apply(rdOpen, reducer.BlockEnd{MessageID: mid, Index: 0})
	add("thinking_redacted_live", msgOf(rdOpen), ViewOpts{Now: now}, func(r *Renderer, w int) { r.RenderMessage(msgOf(rdOpen), w, ViewOpts{Now: t0}) })
	add("thinking_redacted_done", msgOf(rdDone), ViewOpts{}, nil)

	// Tool calls.
	streaming := ahpwire.ToolCallState{ToolCallID: "tc1", Status: ahpwire.ToolStreaming, ToolName: "bash", DisplayName: "Run command"}
	ts := apply(startState(), toolStart(streaming))
	streaming.PartialInput = ahpwire.Ptr(`{"command":"ls -`)
	ts = apply(ts, toolUpdate(0, streaming))
	add("tool_streaming", msgOf(ts), ViewOpts{Now: now}, nil)
	add("tool_streaming_expanded", msgOf(ts), ViewOpts{Now: now, Expanded: expand(msgOf(ts), 0)}, nil)

	pc := baseTool(ahpwire.ToolPendingConfirmation)
	pc.ToolInput = &ahpwire.ToolInput{Text: `{"path":"main.go","edits":[{"old":"import \"fmt\"","new":"import (\"fmt\"; \"os\")"}]}`}
	pc.DisplayName, pc.InvocationMessage = "Edit file", rich("Edit `main.go`")
	pc.ConfirmationTitle = rich("Apply edits to main.go?")
	pc.RiskAssessment = &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Reason: rich("Edits one source file in the workspace."), Safety: f64(0.92)}
	pc.Edits = &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{*fileEdit()}}
	pc.Options = []ahpwire.ConfirmationOption{
		{ID: "once", Label: "Allow once", Kind: "approve", Group: intp(0)},
		{ID: "session", Label: "Allow for this session", Kind: "approve", Group: intp(0)},
		{ID: "deny", Label: "Deny", Kind: "deny", Group: intp(1)},
	}
	pcs := apply(startState(), toolStart(pc))
	add("tool_pending_confirmation", msgOf(pcs), ViewOpts{Now: now, Resources: resources}, nil)
	add("tool_pending_confirmation_not_loaded", msgOf(pcs), ViewOpts{Now: now}, nil)
	pl := baseTool(ahpwire.ToolPendingConfirmation)
	pl.RiskAssessment = &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "loading"}
	add("tool_pending_risk_loading", msgOf(apply(startState(), toolStart(pl))), ViewOpts{Now: now}, nil)
	ph := baseTool(ahpwire.ToolPendingConfirmation)
	ph.ToolInput = ahpwire.InlineInput(`{"command":"rm -rf /tmp/cache"}`)
	ph.InvocationMessage = rich("Run `rm -rf /tmp/cache`")
	ph.RiskAssessment = &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Reason: rich("Deletes files."), Safety: f64(0.2)}
	add("tool_pending_risk_high", msgOf(apply(startState(), toolStart(ph))), ViewOpts{Now: now}, nil)

	run := baseTool(ahpwire.ToolRunning)
	run.Confirmed = ahpwire.ConfirmedNotNeeded
	run.Content = []ahpwire.ToolResultContent{terminalContent("ahp-terminal:/t1", "ls -la", ahpwire.TerminalCommandResult{Preview: "total 12\n"})}
	run.Content[0].IsPty = ahpwire.Ptr(true)
	rs := apply(startState(), toolStart(run))
	seeRun := func(r *Renderer, w int) { r.RenderMessage(msgOf(rs), w, ViewOpts{Now: t0}) }
	add("tool_running", msgOf(rs), ViewOpts{Now: now}, seeRun)
	add("tool_running_expanded", msgOf(rs), ViewOpts{Now: now, Expanded: expand(msgOf(rs), 0)}, seeRun)

	ar := baseTool(ahpwire.ToolAuthRequired)
	ar.Contributor = &ahpwire.ToolCallContributor{Kind: "mcp", CustomizationID: "github"}
	ar.Auth = &ahpwire.McpAuthRequirement{Reason: "token expired", Resource: ahpwire.ProtectedResourceMetadata{Resource: "https://api.github.com"},
		RequiredScopes: []string{"repo", "read:org"}, Description: "Sign in to GitHub to continue."}
	add("tool_auth_required", msgOf(apply(startState(), toolStart(ar))), ViewOpts{Now: now}, nil)

	prc := completedTool(true, ahpwire.TextContent("README.md\nmain.go"))
	prc.Status = ahpwire.ToolPendingResultConfirmation
	add("tool_pending_result", msgOf(apply(startState(), toolStart(prc))), ViewOpts{Now: now}, nil)

	comp := completedTool(true, allContent()...)
	cs1 := apply(startState(), toolStart(comp))
	seeRunThenDone := func(r *Renderer, w int) { r.RenderMessage(msgOf(rs), w, ViewOpts{Now: t0}) }
	add("tool_completed", msgOf(cs1), ViewOpts{Now: t0.Add(1500 * time.Millisecond)}, seeRunThenDone)
	add("tool_completed_expanded", msgOf(cs1), ViewOpts{Now: now, Expanded: expand(msgOf(cs1), 0), Resources: resources}, nil)
	fail := completedTool(false, terminalContent("ahp-terminal:/t2", "ls /nope", ahpwire.TerminalCommandResult{
		Preview: "ls: cannot access '/nope': No such file or directory\n", ExitCode: intp(2), Truncated: ahpwire.Ptr(true)}))
	fs := apply(startState(), toolStart(fail))
	add("tool_failed", msgOf(fs), ViewOpts{Now: now}, nil)
	add("tool_failed_expanded", msgOf(fs), ViewOpts{Now: now, Expanded: expand(msgOf(fs), 0)}, nil)

	den := baseTool(ahpwire.ToolCancelled)
	den.Reason, den.ReasonMessage, den.UserSuggestion = ahpwire.CancelDenied, rich("not in this repo"), ahpwire.Ptr(ahpwire.UserMessage("Use git ls-files instead."))
	add("tool_cancelled_denied", msgOf(apply(startState(), toolStart(den))), ViewOpts{Now: now}, nil)
	sk := baseTool(ahpwire.ToolCancelled)
	sk.Reason = ahpwire.CancelSkipped
	sks := apply(startState(), toolStart(sk))
	add("tool_cancelled_skipped", msgOf(sks), ViewOpts{Now: now}, nil)
	add("tool_cancelled_skipped_expanded", msgOf(sks), ViewOpts{Now: now, Expanded: expand(msgOf(sks), 0)}, nil)
	rd := completedTool(true)
	rd.Status, rd.Reason = ahpwire.ToolCancelled, ahpwire.CancelResultDenied
	add("tool_cancelled_result_denied", msgOf(apply(startState(), toolStart(rd))), ViewOpts{Now: now}, nil)
	ref := completedTool(true)
	ref.ToolInput = &ahpwire.ToolInput{Ref: &ahpwire.ContentRef{URI: "ahp-content:/input/9", SizeHint: ahpwire.Ptr[int64](48213)}}
	refs := apply(startState(), toolStart(ref))
	add("tool_input_ref_not_loaded", msgOf(refs), ViewOpts{Expanded: expand(msgOf(refs), 0)}, nil)
	add("tool_input_ref_loaded", msgOf(refs), ViewOpts{Expanded: expand(msgOf(refs), 0),
		Resources: map[string]string{"ahp-content:/input/9": `{"query":"fetched input"}`}}, nil)

	// Errors.
	er := apply(startState(), textStart("m1", "Working on it."),
		reducer.Error{MessageID: mid, Info: reducer.ErrorInfo{ErrorType: "rate_limit", Message: "Too many requests", Resumable: true}},
		endMsg(reducer.StatusError, 4*time.Second))
	add("error_resumable", msgOf(er), ViewOpts{}, nil)
	// The same turn resumed (chat/turnResume keeps the error part): the
	// error no longer offers to resume; the reply goes on below it.
	resumed := apply(er, reducer.MessageResume{TurnID: mid}, textStart("m2", "Picking up where I stopped."),
		endMsg(reducer.StatusComplete, 6*time.Second))
	add("error_resumed", msgOf(resumed), ViewOpts{}, nil)
	es := apply(startState(), reducer.Error{MessageID: mid, Info: reducer.ErrorInfo{ErrorType: "internal", Message: "agent crashed",
		Stack: "panic: boom\n\tat agent.run (agent.go:42)"}})
	add("error_expanded_stack", msgOf(es), ViewOpts{Expanded: expand(msgOf(es), 0)}, nil)

	// Input requests.
	req := ahpwire.ChatInputRequest{ID: "q1", Message: "A few choices before I continue:", URL: "https://example.com/docs",
		Questions: []ahpwire.ChatInputQuestion{
			{ID: "name", Kind: "text", Title: "Project name", Message: "Used for the module path.", Required: ahpwire.Ptr(true)},
			{ID: "db", Kind: "single-select", Message: "Which database?", Options: []ahpwire.ChatInputOption{
				{ID: "pg", Label: "PostgreSQL", Recommended: ahpwire.Ptr(true)}, {ID: "sqlite", Label: "SQLite", Description: "file based"}}},
			{ID: "feat", Kind: "multi-select", Message: "Features", Options: []ahpwire.ChatInputOption{{ID: "auth", Label: "Auth"}, {ID: "api", Label: "API"}}},
			{ID: "tests", Kind: "boolean", Message: "Write tests?"},
			{ID: "port", Kind: "integer", Message: "Port"},
		}}
	draft := req
	draft.Answers = map[string]ahpwire.ChatInputAnswer{
		"name": {State: ahpwire.AnswerDraft, Value: ahpwire.Ptr(ahpwire.TextAnswer("ahptui"))},
		"db":   {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.SelectedAnswer("pg"))},
	}
	is := apply(startState(), inputStart(draft, ""))
	add("input_open", msgOf(is), ViewOpts{Now: now}, nil)
	accepted := req
	accepted.Answers = map[string]ahpwire.ChatInputAnswer{
		"name":  {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.TextAnswer("ahptui"))},
		"db":    draft.Answers["db"],
		"feat":  {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.SelectedManyAnswer([]string{"auth", "api"})), FreeformValues: []string{"metrics"}},
		"tests": {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.BoolAnswer(true))},
		"port":  {State: ahpwire.AnswerSkipped},
	}
	ia := apply(startState(), inputStart(accepted, ahpwire.InputAccept))
	add("input_answered", msgOf(ia), ViewOpts{Now: now}, nil)
	id := apply(startState(), inputStart(draft, ahpwire.InputDecline))
	add("input_declined", msgOf(id), ViewOpts{Now: now}, nil)

	// Notifications, content refs, usage and message end states.
	ns := apply(startState(),
		reducer.BlockStart{MessageID: mid, Kind: reducer.KindSystemNotification, Text: "Context window compacted to 40% to continue."},
		reducer.BlockStart{MessageID: mid, Kind: reducer.KindSystemNotification, Text: "Model switched to **fast** for this turn.", Markdown: true},
		endMsg(reducer.StatusComplete, 0))
	add("system_notification", msgOf(ns), ViewOpts{}, nil)
	cr := apply(startState(), reducer.BlockStart{MessageID: mid, Kind: reducer.KindContentRef,
		Ref: &ahpwire.ContentRef{URI: "ahp-content:/big/1", ContentType: "text/markdown", SizeHint: ahpwire.Ptr[int64](1 << 20)}}, endMsg(reducer.StatusComplete, 0))
	add("content_ref", msgOf(cr), ViewOpts{}, nil)
	usage := apply(startState(), textStart("m1", "Done."),
		reducer.UsageChanged{MessageID: mid, Usage: reducer.Usage{InputTokens: 12345, OutputTokens: 678, CacheReadTokens: 9000, Model: "gpt-5"}},
		endMsg(reducer.StatusComplete, 5120*time.Millisecond))
	add("usage", msgOf(usage), ViewOpts{}, nil)
	// AHP cancels a running tool call as skipped when its turn ends.
	skipped := baseTool(ahpwire.ToolCancelled)
	skipped.Reason = ahpwire.CancelSkipped
	cancelled := apply(startState(), textStart("m1", "Let me"), toolStart(baseTool(ahpwire.ToolRunning)),
		toolUpdate(1, skipped), endMsg(reducer.StatusCancelled, 2*time.Second))
	add("message_cancelled", msgOf(cancelled), ViewOpts{}, nil)
	interrupted := apply(startState(), textStart("m1", "Half an ans"), reducer.SessionEnd{Reason: "disposed"})
	add("message_interrupted", msgOf(interrupted), ViewOpts{}, nil)

	// A full turn with focus on the tool call.
	full := apply(startState(), thinkStart("r1", thinkingText, false), reducer.BlockEnd{MessageID: mid, Index: 0},
		toolStart(completedTool(true, ahpwire.TextContent("README.md\nmain.go"))),
		textStart("m1", answerMD),
		reducer.UsageChanged{MessageID: mid, Usage: reducer.Usage{InputTokens: 900, OutputTokens: 40}},
		endMsg(reducer.StatusComplete, 5120*time.Millisecond))
	fm := msgOf(full)
	add("turn_focused", fm, ViewOpts{Focused: BlockKey{MessageID: fm.ID, Index: 1}}, nil)

	// Hostile text in every field.
	hostile := "evil\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m \x9b31m c1\u009b2J\x1bPdcs\x1b\\ &#27;[31m\r\nbell\a end"
	ht := completedTool(true,
		ahpwire.TextContent(hostile),
		terminalContent("", hostile, ahpwire.TerminalCommandResult{Preview: hostile, ExitCode: intp(1)}))
	ht.DisplayName, ht.InvocationMessage = hostile, rich(hostile)
	ht.ToolInput = ahpwire.InlineInput(hostile)
	hs := apply(startState(), thinkStart("r1", hostile, false), textStart("m1", "# "+hostile+"\n\n"+hostile+"\n\n[link](http://x/&#27;]8;;evil)\n"),
		toolStart(ht), reducer.Error{MessageID: mid, Info: reducer.ErrorInfo{ErrorType: hostile, Message: hostile}},
		endMsg(reducer.StatusError, 0))
	hm := msgOf(hs)
	add("hostile", hm, ViewOpts{Thinking: ThinkingFull, Expanded: expand(hm, 2)}, nil)
	return append(append(cs, moreGoldenCases()...), pillGoldenCases()...)
}
