package mockanthropic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/mockllm"
)

// Request is the part of a Messages API request the mock reads.
type Request struct {
	// Model is the model the client asked for.
	Model string `json:"model"`
	// Stream asks for server-sent events.
	Stream bool `json:"stream"`
	// Messages is the conversation.
	Messages []Message `json:"messages"`
	// Tools are the tools the client offers (only their names are read).
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	// System is the system prompt (a string or text blocks); the mock
	// reads the working directory from it (see WorkDir).
	System json.RawMessage `json:"system"`
	// Answered, when set, reports whether the mock already answered the
	// result of tool_use id (the server remembers; see turn).
	Answered func(id string) bool `json:"-"`
}

// Message is one conversation message; Content is a string or an array
// of content blocks.
type Message struct {
	// Role is user, assistant or (Claude Code) system.
	Role string `json:"role"`
	// Content is the raw content.
	Content json.RawMessage `json:"content"`
}

// inBlock is one content block of a request message.
type inBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// Block is one content block of a reply.
type Block struct {
	// Type is text, thinking or tool_use.
	Type string
	// Text is the text (text) or the reasoning (thinking).
	Text string
	// Chunks, when set, are the deltas Text is streamed in.
	Chunks []string
	// Delay is the pause before each delta.
	Delay time.Duration
	// ID and Name name a tool_use (the server sets an empty ID to a
	// unique one); Input is its input.
	ID, Name string
	// Input is the tool_use input object.
	Input map[string]any
}

// Reply is what the mock answers to one request.
type Reply struct {
	// Blocks are the content blocks, in order.
	Blocks []Block
	// StopReason is end_turn or tool_use.
	StopReason string
}

// blocks decodes a message's content (a string or an array of blocks).
func (m Message) blocks() []inBlock {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return []inBlock{{Type: "text", Text: s}}
	}
	var bs []inBlock
	_ = json.Unmarshal(m.Content, &bs)
	return bs
}

// Prompt returns the user's words in the last user message: its last
// text block with words besides the context Claude Code wraps in tags
// (<system-reminder>, <local-command-caveat>, <command-name>, …).
func (r *Request) Prompt() string {
	p, _ := r.turn()
	return p
}

// turn reads the last user message: the tool_result answering the
// tool_use that ends the assistant message before it (unless that result
// was answered already and words follow: a new prompt), else the user's
// words. (Claude Code merges a new prompt into the user message that
// carries the previous turn's tool results, results first: only the
// assistant's side tells a result to answer from a new prompt.)
func (r *Request) turn() (string, *inBlock) {
	last := -1
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			last = i
			break
		}
	}
	if last < 0 {
		return "", nil
	}
	blocks := r.Messages[last].blocks()
	if tu := r.pendingToolUse(last); tu != nil {
		for i := range blocks {
			if blocks[i].Type == "tool_result" && blocks[i].ToolUseID == tu.ID {
				// The current adapter (0.101) gathers an assistant
				// message's texts before its tool_use blocks and a user
				// message's texts after its tool results, so a finished
				// turn seems to end with a tool_use, and the prompt that
				// asked for a tool comes after the tool's result. Words
				// after a result the mock already answered are a new prompt.
				if p := promptOf(blocks[i+1:]); p != "" && r.Answered != nil && r.Answered(tu.ID) {
					return p, nil
				}
				return "", &blocks[i]
			}
		}
	}
	return promptOf(blocks), nil
}

// toolUse is a tool_use block of an assistant message in a request.
type toolUse struct {
	Type  string         `json:"type"`
	ID    string         `json:"id"`
	Name  string         `json:"name"`
	Input map[string]any `json:"input"`
}

// pendingToolUse is the tool_use that ends the last assistant message
// before message i (nil when it ends otherwise).
func (r *Request) pendingToolUse(i int) *toolUse {
	for j := i - 1; j >= 0; j-- {
		if r.Messages[j].Role != "assistant" {
			continue
		}
		var bs []toolUse
		if json.Unmarshal(r.Messages[j].Content, &bs) != nil || len(bs) == 0 || bs[len(bs)-1].Type != "tool_use" {
			return nil
		}
		return &bs[len(bs)-1]
	}
	return nil
}

// lastToolUse is the tool_use the last user message answers (nil when
// it answers none).
func (r *Request) lastToolUse() *toolUse {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.pendingToolUse(i)
		}
	}
	return nil
}

// userWords is the newest user words of the conversation, skipping user
// messages that carry only tool results (the prompt a tool chain serves).
func (r *Request) userWords() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role != "user" {
			continue
		}
		if p := promptOf(r.Messages[i].blocks()); p != "" {
			return p
		}
	}
	return ""
}

// promptOf is the user's newest words: the last text block that holds
// something besides tagged context (Claude Code merges consecutive user
// turns into one message, older prompts first).
func promptOf(blocks []inBlock) string {
	for i := len(blocks) - 1; i >= 0; i-- {
		if blocks[i].Type != "text" {
			continue
		}
		if t := strings.TrimSpace(stripTags(blocks[i].Text)); t != "" {
			return t
		}
	}
	return ""
}

// stripTags removes every <name>…</name> element (name in [a-z_-]).
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := i + 1
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '-' || s[j] == '_') {
			j++
		}
		if j == i+1 || j >= len(s) || s[j] != '>' {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		end := strings.Index(s[j:], "</"+s[i+1:j]+">")
		if end < 0 {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		s = s[j+end+len(s[i+1:j])+3:]
	}
	b.WriteString(s)
	return b.String()
}

// offersTool reports whether the request offers the named tool.
func (r *Request) offersTool(name string) bool {
	for _, t := range r.Tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// resultText flattens a tool_result's content (a string or text blocks).
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []inBlock
	_ = json.Unmarshal(raw, &bs)
	var out []string
	for _, b := range bs {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return strings.Join(out, "\n")
}

// Script picks the reply to a request (see the package comment). A
// tool_result in the last user message with no words after it is
// answered with the final text.
func Script(r *Request) Reply {
	p, tr := r.turn()
	if tr != nil {
		if rep, ok := r.afterFileTool(tr); ok {
			return rep
		}
		if tu := r.lastToolUse(); tu != nil && tu.Name == "AskUserQuestion" {
			return afterAsk(tr) // ask.go
		}
		text := "The command ran."
		if tr.IsError {
			text = "The command did not run: " + firstLine(resultText(tr.Content))
		}
		return Reply{Blocks: []Block{{Type: "text", Text: text}}, StopReason: "end_turn"}
	}
	if rep, ok := r.fileTool(p); ok {
		return rep
	}
	if rep, ok := r.askReply(p); ok {
		return rep
	}
	lower := strings.ToLower(p)
	switch {
	case strings.Contains(lower, "bash:") && r.offersTool("Bash"):
		cmd := strings.TrimSpace(p[strings.Index(lower, "bash:")+len("bash:"):])
		cmd = firstLine(cmd)
		return Reply{Blocks: []Block{
			{Type: "text", Text: "I will run `" + cmd + "`."},
			{Type: "tool_use", Name: "Bash", // the server numbers its ID
				Input: map[string]any{"command": cmd, "description": "Run " + cmd}},
		}, StopReason: "tool_use"}
	case strings.HasPrefix(lower, "think"):
		return Reply{Blocks: []Block{
			{Type: "thinking", Text: "Let me think about this carefully. The user wants an answer."},
			{Type: "text", Text: "After thinking: the answer is 42."},
		}, StopReason: "end_turn"}
	case strings.HasPrefix(lower, "markdown"):
		n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(lower, "markdown")))
		if n <= 0 {
			n = 4096
		}
		md := Markdown(n)
		return Reply{Blocks: []Block{{Type: "text", Text: md, Chunks: Chunk(md, 1)}}, StopReason: "end_turn"}
	case strings.HasPrefix(lower, "slow"):
		text := mockllm.SlowText()
		words := strings.SplitAfter(text, " ")
		return Reply{Blocks: []Block{{Type: "text", Text: text, Chunks: words[:len(words)-1], Delay: mockllm.SlowDelay}}, StopReason: "end_turn"}
	}
	if p == "" {
		p = "(nothing)"
	}
	return Reply{Blocks: []Block{{Type: "text", Text: "Hello from the mock. You said: " + firstLine(p)}}, StopReason: "end_turn"}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Markdown returns n bytes of deterministic markdown: headings,
// paragraphs, lists and code fences, like a long agent answer, ending in
// the line "-- end of markdown N bytes --" (from 200 bytes), which a
// script waits for.
func Markdown(n int) string {
	end := fmt.Sprintf("\n\n-- end of markdown %d bytes --\n", n)
	if n < 200 {
		end = ""
	}
	var b strings.Builder
	for i := 0; b.Len() < n-len(end); i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "## Section %d\n\n", i/5+1)
		case 1, 3:
			fmt.Fprintf(&b, "This paragraph %d explains **one step** of the change, with `inline code` and a [link](https://example.com/%d). It goes on for a while so lines wrap in a narrow terminal.\n\n", i, i)
		case 2:
			fmt.Fprintf(&b, "- item %d one\n- item %d two\n- item %d three\n\n", i, i, i)
		case 4:
			fmt.Fprintf(&b, "```go\nfunc step%d() error {\n\treturn nil\n}\n```\n\n", i)
		}
	}
	return b.String()[:n-len(end)] + end
}

// Chunk cuts s into deltas of 20–60 bytes (never inside a UTF-8
// sequence), deterministically for a seed.
func Chunk(s string, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []string
	for len(s) > 0 {
		n := 20 + rng.IntN(41)
		if n >= len(s) {
			out = append(out, s)
			break
		}
		for n < len(s) && s[n]&0xC0 == 0x80 {
			n++
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
