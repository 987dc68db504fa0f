package render

import (
	"encoding/base64"
	"strings"
	"time"

	"github.com/ahptui/ahptui/reducer"
)

// More golden fixtures: embedded resources, caller-supplied key hints,
// thinking that ends when the agent moves on, turns joined mid-way, and
// hostile text in every remaining server field.

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// readFileTool is a completed read_file call whose result is one embedded
// resource.
func readFileTool(input string, c reducer.ToolContent) reducer.ToolCall {
	return reducer.ToolCall{
		ID: "tc1", Status: reducer.ToolCompleted, ToolName: "read_file", DisplayName: "Read file",
		InvocationMessage: rich("Reading `README.md`"), Confirmed: reducer.ConfirmedNotNeeded,
		Input:   &reducer.ToolInput{Text: input},
		Content: []reducer.ToolContent{c},
		Result:  &reducer.ToolOutcome{Success: true, PastTenseMessage: *rich("Read `README.md`")},
	}
}

const readmeText = "# Widget\n\nA tiny widget service.\n\n\tindented\twith tabs\n"

func moreGoldenCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, m *reducer.Message, v ViewOpts, prep func(*Renderer, int)) {
		cs = append(cs, goldenCase{name: name, msg: m, view: v, prep: prep})
	}
	now := t0.Add(3 * time.Second)
	expandedTool := func(tc reducer.ToolCall) (*reducer.Message, ViewOpts) {
		m := msgOf(apply(startState(), toolStart(tc), endMsg(reducer.StatusComplete, time.Second)))
		return m, ViewOpts{Expanded: expand(m, 0)}
	}

	// Embedded resources: text named after the tool input's path, a text
	// blob under a generic type, binary data, and a broken payload.
	m, v := expandedTool(readFileTool(`{"path":"README.md"}`,
		reducer.ToolContent{Type: reducer.ContentEmbeddedResource, Data: b64(readmeText), ContentType: "text/markdown"}))
	add("embedded_text_named", m, v, nil)
	m, v = expandedTool(readFileTool(`{"query":"x"}`,
		reducer.ToolContent{Type: reducer.ContentEmbeddedResource, Data: b64(`{"ok":true,"items":[1,2]}`), ContentType: "application/octet-stream"}))
	add("embedded_utf8_blob", m, v, nil)
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00\xff", 2000)
	m, v = expandedTool(readFileTool(`{"file_path":"assets/logo.png"}`,
		reducer.ToolContent{Type: reducer.ContentEmbeddedResource, Data: b64(png), ContentType: "image/png"}))
	add("embedded_binary", m, v, nil)
	m, v = expandedTool(readFileTool(`{"path":"a.txt"}`,
		reducer.ToolContent{Type: reducer.ContentEmbeddedResource, Data: "not base64!", ContentType: "text/plain"}))
	add("embedded_invalid", m, v, nil)

	// Key hints from the caller (a remapped keymap).
	hints := PromptHints{
		Confirm: []KeyHint{{"y", "yes", HintApprove}, {"n", "no", HintDeny}, {"1-9", "pick", HintOther}},
		Review:  []KeyHint{{"enter", "keep", HintApprove}, {"x", "discard", HintDeny}},
	}
	pc := baseTool(reducer.ToolPendingConfirmation)
	pc.Options = []reducer.ConfirmOption{{ID: "once", Label: "Run once", Kind: "approve"}, {ID: "no", Label: "Don't run", Kind: "deny"}}
	pcm := msgOf(apply(startState(), textStart("m1", "Let me run it."), toolStart(pc)))
	add("confirm_custom_hints", pcm, ViewOpts{Now: now, Hints: hints}, nil)
	pr := completedTool(true, reducer.ToolContent{Type: reducer.ContentText, Text: "ok"})
	pr.Status = reducer.ToolPendingResultConfirmation
	prm := msgOf(apply(startState(), textStart("m1", "Ran it."), toolStart(pr)))
	add("review_custom_hints", prm, ViewOpts{Now: now, Hints: hints}, nil)

	// Thinking ends when the agent moves on, although the reducer keeps
	// the reasoning block open until the turn ends.
	thOpen := apply(startState(), thinkStart("r1", thinkingText, false))
	moved := apply(thOpen, textStart("m1", "Here is the layout."))
	seeOpen := func(r *Renderer, w int) { r.RenderMessage(msgOf(thOpen), w, ViewOpts{Now: t0}) }
	add("thinking_moved_on", msgOf(moved), ViewOpts{Thinking: ThinkingTail, Now: t0.Add(7 * time.Second)},
		func(r *Renderer, w int) {
			seeOpen(r, w)
			r.RenderMessage(msgOf(moved), w, ViewOpts{Now: t0.Add(4 * time.Second)})
		})

	// A turn joined mid-way (reconnect): the first sighting of the first
	// block counts from the turn's start.
	add("thinking_joined_midway", msgOf(thOpen), ViewOpts{Now: t0.Add(42 * time.Second)}, nil)

	// Hostile text in the remaining server fields: confirmation title,
	// risk reason, option labels, edit paths, input request (message, URL,
	// questions, options, answers, response), links, sub-agents, content
	// refs, embedded resources, attachments, usage model.
	h := "evil\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m \x9b31m c1\u009b2J\x1bPdcs\x1b\\\r\nbell\a end"
	hc := baseTool(reducer.ToolPendingConfirmation)
	hc.DisplayName, hc.ToolName, hc.InvocationMessage = h, h, rich(h)
	hc.ConfirmationTitle = rich(h)
	hc.Risk = &reducer.Risk{Kind: "judge", Status: "complete", Reason: rich(h), Safety: f64(0.6)}
	hc.Options = []reducer.ConfirmOption{{ID: h, Label: h, Kind: "approve"}, {ID: h, Kind: "deny"}}
	hc.Edits = []reducer.FileEdit{{BeforeURI: "file:///" + h, AfterURI: "file:///x" + h,
		BeforeContent: &reducer.ContentRef{URI: "data:," + h, SizeHint: -1}, AfterContent: &reducer.ContentRef{URI: "mem:/" + h, SizeHint: 9}, Added: 1, Removed: 1}}
	hd := completedTool(true,
		reducer.ToolContent{Type: reducer.ContentResource, URI: h, ContentType: h, SizeHint: 10},
		reducer.ToolContent{Type: reducer.ContentEmbeddedResource, Data: b64(h + "\n" + h), ContentType: "text/" + h},
		reducer.ToolContent{Type: reducer.ContentEmbeddedResource, Data: b64(h), ContentType: h},
		reducer.ToolContent{Type: reducer.ContentSubagent, Subagent: &reducer.SubagentLink{Resource: h, Title: h, AgentName: h, Description: h}},
		reducer.ToolContent{Type: reducer.ContentTerminal, Terminal: &reducer.TerminalOutput{Resource: h, Title: h, Output: h, Truncated: true, ExitCode: intp(3)}})
	hd.ID = "tc2"
	hd.Input = &reducer.ToolInput{Text: `{"path":"` + strings.ReplaceAll(h, "\x1b", `\u001b`) + `"}`}
	hd.Result.PastTenseMessage = reducer.Rich{Text: h}
	hd.Result.Success, hd.Result.ErrorMessage, hd.Result.ErrorCode = false, h, h
	req := reducer.InputRequest{ID: "q1", Message: h, URL: h, Questions: []reducer.InputQuestion{
		{ID: "a", Kind: "text", Title: h, Message: h},
		{ID: "b", Kind: "single-select", Message: h, Options: []reducer.InputOption{{ID: "o", Label: h, Description: h}}},
	}}
	hn := baseTool(reducer.ToolCancelled)
	hn.ID, hn.CancelReason, hn.ReasonMessage, hn.UserSuggestion = "tc3", reducer.CancelDenied, rich(h), h
	hs := apply(startState(), toolStart(hc), toolStart(hd), toolStart(hn),
		reducer.InputRequested{Request: req},
		reducer.InputCompleted{RequestID: "q1", Response: h, Answers: map[string]reducer.InputAnswer{
			"a": {State: reducer.AnswerSubmitted, Kind: reducer.AnswerText, Text: h},
			"b": {State: reducer.AnswerSubmitted, Kind: reducer.AnswerSelected, Selected: []string{"o"}, Freeform: []string{h}}}},
		reducer.BlockStart{MessageID: mid, Kind: reducer.KindContentRef, Ref: &reducer.ContentRef{URI: h, ContentType: h, SizeHint: 5}},
		reducer.BlockStart{MessageID: mid, Kind: reducer.KindSystemNotification, Text: h},
		reducer.UsageChanged{MessageID: mid, Usage: reducer.Usage{InputTokens: 1, OutputTokens: 2, Model: h}})
	hm := msgOf(hs) // still streaming: the confirmation stays pending
	add("hostile_fields", hm, ViewOpts{Now: now, Expanded: expand(hm, 1), Resources: map[string]string{"mem:/" + h: h}}, nil)
	hu := apply(reducer.State{}, reducer.UserMessage{TurnID: mid, Text: h, Origin: h,
		Attachments: []reducer.Attachment{{Type: "resource", Label: h, URI: h}}})
	add("hostile_user", msgOf(hu), ViewOpts{}, nil)
	return cs
}
