package render

import (
	"encoding/base64"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// More golden fixtures: embedded resources, caller-supplied key hints,
// thinking that ends when the agent moves on, turns joined mid-way, and
// hostile text in every remaining server field.

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// readFileTool is a completed read_file call whose result is one embedded
// resource.
func readFileTool(input string, c ahpwire.ToolResultContent) ahpwire.ToolCallState {
	return ahpwire.ToolCallState{
		ToolCallID: "tc1", Status: ahpwire.ToolCompleted, ToolName: "read_file", DisplayName: "Read file",
		InvocationMessage: rich("Reading `README.md`"), Confirmed: ahpwire.ConfirmedNotNeeded,
		ToolInput: ahpwire.InlineInput(input),
		Content:   []ahpwire.ToolResultContent{c},
		Success:   ahpwire.Ptr(true), PastTenseMessage: rich("Read `README.md`"),
	}
}

const readmeText = "# Widget\n\nA tiny widget service.\n\n\tindented\twith tabs\n"

func moreGoldenCases() []goldenCase {
	var cs []goldenCase
	add := func(name string, m *reducer.Message, v ViewOpts, prep func(*Renderer, int)) {
		cs = append(cs, goldenCase{name: name, msg: m, view: v, prep: prep})
	}
	now := t0.Add(3 * time.Second)
	expandedTool := func(tc ahpwire.ToolCallState) (*reducer.Message, ViewOpts) {
		m := msgOf(apply(startState(), toolStart(tc), endMsg(reducer.StatusComplete, time.Second)))
		return m, ViewOpts{Expanded: expand(m, 0)}
	}

	// Embedded resources: text named after the tool input's path, a text
	// blob under a generic type, binary data, and a broken payload.
	m, v := expandedTool(readFileTool(`{"path":"README.md"}`,
		ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(readmeText), ContentType: "text/markdown"}))
	add("embedded_text_named", m, v, nil)
	m, v = expandedTool(readFileTool(`{"query":"x"}`,
		ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(`{"ok":true,"items":[1,2]}`), ContentType: "application/octet-stream"}))
	add("embedded_utf8_blob", m, v, nil)
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + strings.Repeat("\x00\xff", 2000)
	m, v = expandedTool(readFileTool(`{"file_path":"assets/logo.png"}`,
		ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(png), ContentType: "image/png"}))
	add("embedded_binary", m, v, nil)
	m, v = expandedTool(readFileTool(`{"path":"a.txt"}`,
		ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: "not base64!", ContentType: "text/plain"}))
	add("embedded_invalid", m, v, nil)

	// Key hints from the caller (a remapped keymap).
	hints := PromptHints{
		Confirm: []KeyHint{{"y", "yes", HintApprove}, {"n", "no", HintDeny}, {"1-9", "pick", HintOther}},
		Review:  []KeyHint{{"enter", "keep", HintApprove}, {"x", "discard", HintDeny}},
	}
	pc := baseTool(ahpwire.ToolPendingConfirmation)
	pc.Options = []ahpwire.ConfirmationOption{{ID: "once", Label: "Run once", Kind: "approve"}, {ID: "no", Label: "Don't run", Kind: "deny"}}
	pcm := msgOf(apply(startState(), textStart("m1", "Let me run it."), toolStart(pc)))
	add("confirm_custom_hints", pcm, ViewOpts{Now: now, Hints: hints}, nil)
	pr := completedTool(true, ahpwire.ToolResultContent{Type: ahpwire.ContentText, Text: "ok"})
	pr.Status = ahpwire.ToolPendingResultConfirmation
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
	hc := baseTool(ahpwire.ToolPendingConfirmation)
	hc.DisplayName, hc.ToolName, hc.InvocationMessage = h, h, rich(h)
	hc.ConfirmationTitle = rich(h)
	hc.RiskAssessment = &ahpwire.ToolCallRiskAssessment{Kind: "judge", Status: "complete", Reason: rich(h), Safety: f64(0.6)}
	hc.Options = []ahpwire.ConfirmationOption{{ID: h, Label: h, Kind: "approve"}, {ID: h, Kind: "deny"}}
	hc.Edits = &ahpwire.FileEditCollection{Items: []ahpwire.FileEdit{{
		Before: &ahpwire.FileEditSide{URI: "file:///" + h, Content: ahpwire.ContentRef{URI: "data:," + h}},
		After:  &ahpwire.FileEditSide{URI: "file:///x" + h, Content: ahpwire.ContentRef{URI: "mem:/" + h, SizeHint: ahpwire.Ptr[int64](9)}},
		Diff:   &ahpwire.FileEditDiffStats{Added: ahpwire.Ptr[int64](1), Removed: ahpwire.Ptr[int64](1)}}}}
	hd := completedTool(true,
		ahpwire.ToolResultContent{Type: ahpwire.ContentResource, URI: h, ContentType: h, SizeHint: ahpwire.Ptr[int64](10)},
		ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(h + "\n" + h), ContentType: "text/" + h},
		ahpwire.ToolResultContent{Type: ahpwire.ContentEmbeddedResource, Data: b64(h), ContentType: h},
		ahpwire.ToolResultContent{Type: ahpwire.ContentSubagent, Resource: h, Title: h, AgentName: h, Description: h},
		terminalContent(h, h, ahpwire.TerminalCommandResult{Preview: h, Truncated: ahpwire.Ptr(true), ExitCode: intp(3)}))
	hd.ToolCallID = "tc2"
	hd.ToolInput = &ahpwire.ToolInput{Text: `{"path":"` + strings.ReplaceAll(h, "\x1b", `\u001b`) + `"}`}
	hd.PastTenseMessage, hd.Success = ahpwire.PlainPtr(h), ahpwire.Ptr(false)
	hd.Error = &ahpwire.ToolError{Message: h, Code: h}
	req := ahpwire.ChatInputRequest{ID: "q1", Message: h, URL: h, Questions: []ahpwire.ChatInputQuestion{
		{ID: "a", Kind: "text", Title: h, Message: h},
		{ID: "b", Kind: "single-select", Message: h, Options: []ahpwire.ChatInputOption{{ID: "o", Label: h, Description: h}}},
	}, Answers: map[string]ahpwire.ChatInputAnswer{
		"a": {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.TextAnswer(h))},
		"b": {State: ahpwire.AnswerSubmitted, Value: ahpwire.Ptr(ahpwire.SelectedAnswer("o")), FreeformValues: []string{h}}}}
	hn := baseTool(ahpwire.ToolCancelled)
	hn.ToolCallID, hn.Reason, hn.ReasonMessage, hn.UserSuggestion = "tc3", ahpwire.CancelDenied, rich(h), ahpwire.Ptr(ahpwire.UserMessage(h))
	hs := apply(startState(), toolStart(hc), toolStart(hd), toolStart(hn), inputStart(req, h),
		reducer.BlockStart{MessageID: mid, Kind: reducer.KindContentRef, Ref: &ahpwire.ContentRef{URI: h, ContentType: h, SizeHint: ahpwire.Ptr[int64](5)}},
		reducer.BlockStart{MessageID: mid, Kind: reducer.KindSystemNotification, Text: h},
		reducer.UsageChanged{MessageID: mid, Usage: reducer.Usage{InputTokens: 1, OutputTokens: 2, Model: h}})
	hm := msgOf(hs) // still streaming: the confirmation stays pending
	add("hostile_fields", hm, ViewOpts{Now: now, Expanded: expand(hm, 1), Resources: map[string]string{"mem:/" + h: h}}, nil)
	hu := apply(reducer.State{}, reducer.UserMessage{TurnID: mid, Text: h, Origin: h,
		Attachments: []reducer.Attachment{{Type: "resource", Label: h, URI: h}}})
	add("hostile_user", msgOf(hu), ViewOpts{}, nil)
	return cs
}
