package mockgemini

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// Request is the part of a generateContent request the mock reads.
type Request struct {
	// Contents is the conversation.
	Contents []Content `json:"contents"`
	// Tools are the tools on offer (their declarations).
	Tools []struct {
		FunctionDeclarations []Declaration `json:"functionDeclarations"`
	} `json:"tools"`
	// GenerationConfig asks for JSON with a schema (Gemini CLI's routing).
	GenerationConfig struct {
		ResponseMimeType   string          `json:"responseMimeType"`
		ResponseSchema     json.RawMessage `json:"responseSchema"`
		ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
	} `json:"generationConfig"`
}

// Declaration is one function the client offers.
type Declaration struct {
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
	JSONSchema json.RawMessage `json:"parametersJsonSchema"`
}

// Content is one conversation turn.
type Content struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one part of a content.
type Part struct {
	Text             string        `json:"text,omitempty"`
	FunctionCall     *FunctionCall `json:"functionCall,omitempty"`
	FunctionResponse *struct {
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
	} `json:"functionResponse,omitempty"`
}

// FunctionCall is a call of a tool.
type FunctionCall struct {
	Name string         `json:"name"`
	Args map[string]any `json:"args"`
}

// Reply is what the mock answers.
type Reply struct {
	// Parts are the answer's parts.
	Parts []Part
	// Delay is the pause before each streamed word.
	Delay time.Duration
}

func (r Reply) kind() string {
	for _, p := range r.Parts {
		if p.FunctionCall != nil {
			return "call:" + p.FunctionCall.Name
		}
	}
	return "text"
}

// response is a GenerateContentResponse with parts.
func (r Reply) response(parts []Part) map[string]any {
	return map[string]any{
		"candidates":    []map[string]any{{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 20, "candidatesTokenCount": 10, "totalTokenCount": 30},
		"modelVersion":  "gemini-mock",
	}
}

// turn returns the user's words of the last user content, or the function
// response it carries (then words is "").
func (r *Request) turn() (words string, resp *Part) {
	for i := len(r.Contents) - 1; i >= 0; i-- {
		c := r.Contents[i]
		if c.Role != "user" {
			continue
		}
		for j := range c.Parts {
			if c.Parts[j].FunctionResponse != nil {
				return "", &c.Parts[j]
			}
		}
		for j := len(c.Parts) - 1; j >= 0; j-- {
			if t := strings.TrimSpace(c.Parts[j].Text); t != "" && !strings.HasPrefix(t, "<") {
				return t, nil
			}
		}
		return "", nil
	}
	return "", nil
}

// offers returns the declaration of a tool on offer (nil when none).
func (r *Request) offers(name string) *Declaration {
	for _, t := range r.Tools {
		for i := range t.FunctionDeclarations {
			if t.FunctionDeclarations[i].Name == name {
				return &t.FunctionDeclarations[i]
			}
		}
	}
	return nil
}

// Script decides the reply to a request.
func Script(r *Request) Reply {
	if schema := firstRaw(r.GenerationConfig.ResponseJSONSchema, r.GenerationConfig.ResponseSchema); schema != nil {
		b, _ := json.Marshal(fromSchema(schema))
		return Reply{Parts: []Part{{Text: string(b)}}}
	}
	words, resp := r.turn()
	if resp != nil {
		return Reply{Parts: []Part{{Text: afterTool(resp)}}}
	}
	switch {
	case strings.HasPrefix(words, "bash: ") && r.offers("run_shell_command") != nil:
		cmd := strings.TrimPrefix(words, "bash: ")
		return Reply{Parts: []Part{{Text: "I will run `" + cmd + "`. "},
			{FunctionCall: &FunctionCall{Name: "run_shell_command", Args: fill(r.offers("run_shell_command"), map[string]any{"command": cmd, "description": "Run " + cmd})}}}}
	case strings.HasPrefix(words, "edit: ") && r.offers("replace") != nil:
		m := editRe.FindStringSubmatch(words)
		if m == nil {
			break
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(r.workDir(), file)
		}
		return Reply{Parts: []Part{{Text: "I will change " + m[1] + ". "},
			{FunctionCall: &FunctionCall{Name: "replace", Args: fill(r.offers("replace"), map[string]any{
				"file_path": file, "old_string": m[2], "new_string": m[3], "instruction": "Replace " + m[2] + " with " + m[3]})}}}}
	case strings.HasPrefix(words, "slow"):
		return Reply{Parts: []Part{{Text: mockllm.SlowText()}}, Delay: mockllm.SlowDelay}
	}
	return Reply{Parts: []Part{{Text: "Hello from the mock. You said: " + words}}}
}

var editRe = regexp.MustCompile(`^edit: (\S+) (.+?) => (.+)$`)

// afterTool is the text after a tool's response.
func afterTool(p *Part) string {
	resp := p.FunctionResponse.Response
	out, _ := json.Marshal(resp)
	low := strings.ToLower(string(out))
	failed := strings.Contains(low, "error") || strings.Contains(low, "cancel") || strings.Contains(low, "denied") || strings.Contains(low, "reject")
	switch {
	case p.FunctionResponse.Name == "replace" && failed:
		return "The edit was not made: " + clip(string(out))
	case p.FunctionResponse.Name == "replace":
		return "The edit was made."
	case failed:
		return "The command did not run: " + clip(string(out))
	}
	return "The command ran."
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// workDir is the working directory the conversation's context states
// (Gemini CLI: "I'm currently working in the directory: DIR").
func (r *Request) workDir() string {
	re := regexp.MustCompile(`working in the directory: (\S+)`)
	for _, c := range r.Contents {
		for _, p := range c.Parts {
			if m := re.FindStringSubmatch(p.Text); m != nil {
				return m[1]
			}
		}
	}
	return "."
}

// fill adds every required parameter of d that args lacks (strings "mock").
func fill(d *Declaration, args map[string]any) map[string]any {
	var s struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(firstRaw(d.JSONSchema, d.Parameters), &s)
	out := map[string]any{}
	for k, v := range args {
		if _, ok := s.Properties[k]; ok || len(s.Properties) == 0 {
			out[k] = v
		}
	}
	for _, k := range s.Required {
		if _, ok := out[k]; !ok {
			out[k] = "mock"
		}
	}
	return out
}

func firstRaw(a, b json.RawMessage) json.RawMessage {
	if len(a) > 0 && string(a) != "null" {
		return a
	}
	if len(b) > 0 && string(b) != "null" {
		return b
	}
	return nil
}

// fromSchema builds a value that fits a JSON schema (OpenAPI-style types
// too): objects with every property, "user" for an enum offering it, else
// its first value.
func fromSchema(raw json.RawMessage) any {
	var s struct {
		Type       any                        `json:"type"`
		Enum       []any                      `json:"enum"`
		Properties map[string]json.RawMessage `json:"properties"`
		Items      json.RawMessage            `json:"items"`
	}
	_ = json.Unmarshal(raw, &s)
	if len(s.Enum) > 0 {
		for _, e := range s.Enum {
			if e == "user" {
				return e
			}
		}
		return s.Enum[0]
	}
	switch strings.ToLower(fmt.Sprint(s.Type)) {
	case "object":
		out := map[string]any{}
		for k, v := range s.Properties {
			out[k] = fromSchema(v)
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		return 0
	case "boolean":
		return false
	}
	return "mock"
}
