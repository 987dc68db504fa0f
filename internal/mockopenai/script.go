package mockopenai

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// Request is the part of a chat completions request the mock reads.
type Request struct {
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []Message `json:"messages"`
	Tools    []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// Message is one conversation message; Content is a string or parts.
type Message struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// text is a message's text (a string, or its text parts joined).
func (m Message) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(m.Content, &parts)
	var b []string
	for _, p := range parts {
		if p.Text != "" {
			b = append(b, p.Text)
		}
	}
	return strings.Join(b, "\n")
}

// ToolCall is a call of a tool in a reply.
type ToolCall struct {
	Name string
	Args map[string]any
}

// Reply is what the mock answers.
type Reply struct {
	Text  string
	Call  *ToolCall
	Delay time.Duration
}

// prompt is the last user message's text, "" when the conversation ends
// with a tool result (then result is its text).
func (r *Request) prompt() (prompt, result string, isResult bool) {
	if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == "tool" {
		return "", r.Messages[n-1].text(), true
	}
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return strings.TrimSpace(r.Messages[i].text()), "", false
		}
	}
	return "", "", false
}

// offered returns the first of names the request offers as a tool.
func (r *Request) offered(names ...string) string {
	for _, n := range names {
		for _, t := range r.Tools {
			if t.Function.Name == n {
				return n
			}
		}
	}
	return ""
}

var editRe = regexp.MustCompile(`^edit: (\S+) (.+?) => (.+)$`)

// Script decides the reply to a request.
func Script(r *Request) Reply {
	prompt, result, isResult := r.prompt()
	if isResult {
		low := strings.ToLower(result)
		failed := strings.Contains(low, "reject") || strings.Contains(low, "denied") || strings.Contains(low, "error") || strings.Contains(low, "not allowed")
		lastCall := r.lastCallName()
		switch {
		case lastCall == "edit" && failed:
			return Reply{Text: "The edit was not made: " + clip(result)}
		case lastCall == "edit":
			return Reply{Text: "The edit was made."}
		case failed:
			return Reply{Text: "The command did not run: " + clip(result)}
		}
		return Reply{Text: "The command ran."}
	}
	if cmd, ok := strings.CutPrefix(prompt, "bash: "); ok {
		if tool := r.offered("bash", "shell", "run_shell_command"); tool != "" {
			return Reply{Text: "I will run `" + cmd + "`.", Call: &ToolCall{Name: tool, Args: map[string]any{"command": cmd, "description": "Run " + cmd}}}
		}
	}
	if m := editRe.FindStringSubmatch(prompt); m != nil && r.offered("edit") != "" {
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(r.workDir(), file)
		}
		return Reply{Text: "I will change " + m[1] + ".", Call: &ToolCall{Name: "edit", Args: map[string]any{"filePath": file, "oldString": m[2], "newString": m[3]}}}
	}
	if strings.HasPrefix(prompt, "slow") {
		return slowReply()
	}
	return Reply{Text: "Hello from the mock. You said: " + prompt}
}

// slowReply is one word every 100 ms for a minute (for cancellation).
func slowReply() Reply { return Reply{Text: mockllm.SlowText(), Delay: mockllm.SlowDelay} }

// lastCallName is the tool the last assistant message called.
func (r *Request) lastCallName() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := r.Messages[i]; m.Role == "assistant" {
			if len(m.ToolCalls) == 0 {
				return ""
			}
			return m.ToolCalls[len(m.ToolCalls)-1].Function.Name
		}
	}
	return ""
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

var dirRe = regexp.MustCompile(`(?i)working directory: (\S+)`)

// workDir is the working directory the system prompt states ("." when
// none).
func (r *Request) workDir() string {
	for _, m := range r.Messages {
		if mm := dirRe.FindStringSubmatch(m.text()); mm != nil {
			return mm[1]
		}
	}
	return "."
}
