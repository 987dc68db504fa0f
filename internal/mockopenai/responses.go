package mockopenai

import (
	"encoding/json"
	"fmt"
	"strings"
)

// ResponsesRequest is the part of a Responses API request (POST
// /v1/responses, what Codex sends) the mock reads.
type ResponsesRequest struct {
	// Model is the model the client asked for.
	Model string `json:"model"`
	// Stream asks for server-sent events (Codex always does).
	Stream bool `json:"stream"`
	// Input is the conversation, one item a message, call or output.
	Input []Item `json:"input"`
	// Tools are the tools on offer: functions, and custom (freeform)
	// tools such as Codex's apply_patch.
	Tools []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
}

// Item is one input item: a message (role and content parts), a call of
// a tool (function_call with arguments, custom_tool_call with input) or
// its output (function_call_output, custom_tool_call_output).
type Item struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Name    string          `json:"name"`
	CallID  string          `json:"call_id"`
	Output  json.RawMessage `json:"output"`
}

// text is a message's text (a string, or its text parts joined) or a
// call output's (a string, or its text parts).
func (it Item) text() string {
	raw := it.Content
	if it.Type != "message" {
		raw = it.Output
	}
	return Message{Content: raw}.text()
}

// isOutput tells an item that carries a tool's output.
func (it Item) isOutput() bool {
	return it.Type == "function_call_output" || it.Type == "custom_tool_call_output"
}

// isCall tells an item that calls a tool.
func (it Item) isCall() bool {
	return it.Type == "function_call" || it.Type == "custom_tool_call" || it.Type == "local_shell_call"
}

// prompt is the user's words of the last user message (Codex sends its
// context as user messages too, wrapped in tags: they are skipped), or
// the output that ends the input (then isResult).
func (r *ResponsesRequest) prompt() (prompt, result string, isResult bool) {
	if n := len(r.Input); n > 0 && r.Input[n-1].isOutput() {
		return "", r.Input[n-1].text(), true
	}
	for i := len(r.Input) - 1; i >= 0; i-- {
		it := r.Input[i]
		if it.Type != "message" || it.Role != "user" {
			continue
		}
		if t := strings.TrimSpace(stripContext(it.text())); t != "" {
			return t, "", false
		}
	}
	return "", "", false
}

// stripContext drops the context Codex wraps in tags
// (<environment_context>…, <user_instructions>…) and its AGENTS.md
// preamble; what is left is the user's words.
func stripContext(s string) string {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<") || strings.HasPrefix(t, "# AGENTS.md") {
		return ""
	}
	return t
}

// lastCall is the name of the tool the input's last call called.
func (r *ResponsesRequest) lastCall() string {
	for i := len(r.Input) - 1; i >= 0; i-- {
		if r.Input[i].isCall() {
			return r.Input[i].Name
		}
	}
	return ""
}

// offered returns the first of names the request offers as a tool, and
// its type (function or custom).
func (r *ResponsesRequest) offered(names ...string) (name, kind string) {
	for _, n := range names {
		for _, t := range r.Tools {
			if t.Name == n {
				return n, t.Type
			}
		}
	}
	return "", ""
}

// RCall is a tool call of a Responses reply: a function call (Args, sent
// as JSON) or a custom tool call (Input, sent as is).
type RCall struct {
	Name   string
	Custom bool
	Args   map[string]any
	Input  string
}

// ScriptResponses decides the reply to a Responses request: the
// vocabulary of Script, with Codex's tools — the shell (exec_command,
// shell_command or shell, asking to run outside the sandbox so that the
// user is asked) and apply_patch for an edit.
func ScriptResponses(r *ResponsesRequest) (Reply, *RCall) {
	prompt, result, isResult := r.prompt()
	if isResult {
		low := strings.ToLower(result)
		failed := strings.Contains(low, "reject") || strings.Contains(low, "denied") || strings.Contains(low, "declined") ||
			strings.Contains(low, "error") || strings.Contains(low, "not allowed") || strings.Contains(low, "aborted")
		switch last := r.lastCall(); {
		case last == "apply_patch" && failed:
			return Reply{Text: "The edit was not made: " + clip(result)}, nil
		case last == "apply_patch":
			return Reply{Text: "The edit was made."}, nil
		case failed:
			return Reply{Text: "The command did not run: " + clip(result)}, nil
		}
		return Reply{Text: "The command ran."}, nil
	}
	if cmd, ok := strings.CutPrefix(prompt, "bash: "); ok {
		if call := shellCall(r, cmd); call != nil {
			return Reply{Text: "I will run `" + cmd + "`."}, call
		}
	}
	if m := editRe.FindStringSubmatch(prompt); m != nil {
		if name, kind := r.offered("apply_patch"); name != "" {
			patch := fmt.Sprintf("*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n*** End Patch\n", m[1], m[2], m[3])
			call := &RCall{Name: name, Custom: kind == "custom", Input: patch}
			if !call.Custom {
				call.Args = map[string]any{"input": patch}
			}
			return Reply{Text: "I will change " + m[1] + "."}, call
		}
	}
	if strings.HasPrefix(prompt, "slow") {
		return slowReply(), nil
	}
	if strings.Contains(prompt, `{"title"`) { // the adapter's request for the chat's title
		words := strings.Fields(prompt[strings.LastIndexByte(prompt, '\n')+1:])
		title, _ := json.Marshal(map[string]string{"title": "Mock: " + strings.Join(words[:min(len(words), 4)], " ")})
		return Reply{Text: string(title)}, nil
	}
	return Reply{Text: "Hello from the mock. You said: " + prompt}, nil
}

// shellCall is a call of the shell tool on offer running cmd, asking to
// run it outside the sandbox (so that an approval is asked whatever the
// sandbox), or nil when none is offered.
func shellCall(r *ResponsesRequest, cmd string) *RCall {
	esc := map[string]any{"sandbox_permissions": "require_escalated", "justification": "Run " + cmd}
	with := func(k string, v any) map[string]any {
		out := map[string]any{k: v}
		for k, v := range esc {
			out[k] = v
		}
		return out
	}
	switch name, _ := r.offered("exec_command", "shell_command", "shell"); name {
	case "exec_command":
		return &RCall{Name: name, Args: with("cmd", cmd)}
	case "shell_command":
		return &RCall{Name: name, Args: with("command", cmd)}
	case "shell":
		return &RCall{Name: name, Args: with("command", []string{"bash", "-lc", cmd})}
	}
	return nil
}
