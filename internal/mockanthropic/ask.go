package mockanthropic

import (
	"strings"
)

// The "ask: QUESTION? A | B | …" prompt: an AskUserQuestion tool_use (Claude
// Code's question to the user, with the options A, B, …), only when the
// request offers that tool — Claude Code's ACP adapter offers it only to a
// client that advertised form elicitation. After the tool_result comes
// back, a text repeating what the user answered ("Answer received: …").

// askReply is the AskUserQuestion tool_use of an "ask:" prompt (ok false
// for other prompts, or when the tool is not offered).
func (r *Request) askReply(p string) (Reply, bool) {
	lower := strings.ToLower(p)
	i := strings.Index(lower, "ask:")
	if i < 0 || !r.offersTool("AskUserQuestion") {
		return Reply{}, false
	}
	q, opts, _ := strings.Cut(firstLine(p[i+len("ask:"):]), "?")
	q = strings.TrimSpace(q) + "?"
	var options []any
	for _, o := range strings.Split(opts, "|") {
		if o = strings.TrimSpace(o); o != "" {
			options = append(options, map[string]any{"label": o, "description": "the " + o + " choice"})
		}
	}
	if len(options) < 2 {
		options = []any{map[string]any{"label": "Yes", "description": "go ahead"}, map[string]any{"label": "No", "description": "stop"}}
	}
	return toolReply("I need to ask you first.", "AskUserQuestion", map[string]any{
		"questions": []any{map[string]any{"question": q, "header": "Choice", "options": options, "multiSelect": false}},
	}), true
}

// afterAsk answers the result of an AskUserQuestion.
func afterAsk(tr *inBlock) Reply {
	res := strings.TrimSpace(stripTags(resultText(tr.Content)))
	text := "Answer received: " + firstLine(res)
	if tr.IsError {
		text = "The question was not answered: " + firstLine(res)
	}
	return Reply{Blocks: []Block{{Type: "text", Text: text}}, StopReason: "end_turn"}
}
