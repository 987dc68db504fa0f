package demo

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/ahptui/ahptui/ahpwire"
)

// toolSpec describes one tool call the agent makes.
type toolSpec struct {
	id          string
	name        string
	display     string
	intention   string
	input       string // JSON tool input, streamed with chat/toolCallDelta
	invocation  string // markdown
	pastTense   string // markdown, on success
	failedTense string // markdown, on failure
	contributor *ahpwire.ToolCallContributor
}

// kv is one member of a tool input object.
type kv struct {
	k string
	v any
}

// toolInputJSON encodes a tool input object with members in the given order
// and without HTML escaping (so "<" stays readable while it streams).
func toolInputJSON(members ...kv) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(jsonValue(m.k) + ":" + jsonValue(m.v))
	}
	b.WriteByte('}')
	return b.String()
}

// jsonValue encodes v without HTML escaping; values are strings and numbers.
func jsonValue(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// chunkBytes splits s into pieces of about n bytes on rune boundaries.
func chunkBytes(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		cut := min(n, len(s))
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// startTool emits chat/toolCallStart and streams the input with
// chat/toolCallDelta (the first delta also sets the invocation message).
func (r *run) startTool(s toolSpec) error {
	if err := r.emit(&ahpwire.ChatToolCallStart{
		TurnID: r.t.TurnID, ToolCallID: s.id, ToolName: s.name, DisplayName: s.display, Intention: s.intention,
		Contributor: s.contributor,
	}); err != nil {
		return err
	}
	for i, chunk := range chunkBytes(s.input, 6) {
		if err := r.pause(r.opts.Pace); err != nil {
			return err
		}
		d := &ahpwire.ChatToolCallDelta{TurnID: r.t.TurnID, ToolCallID: s.id, Content: chunk}
		if i == 0 {
			m := ahpwire.MarkdownText(s.invocation)
			d.InvocationMessage = &m
		}
		if err := r.emit(d); err != nil {
			return err
		}
	}
	return nil
}

// toolReady emits chat/toolCallReady for a tool call that needs no
// confirmation (confirmed "not-needed", so it is running).
func (r *run) toolReady(s toolSpec) error {
	return r.emit(&ahpwire.ChatToolCallReady{
		TurnID: r.t.TurnID, ToolCallID: s.id, InvocationMessage: ahpwire.MarkdownText(s.invocation),
		ToolInput: ahpwire.InlineInput(s.input), Confirmed: ahpwire.ConfirmedNotNeeded,
	})
}

// startRunningTool starts a tool call that needs no confirmation: startTool,
// then toolReady.
func (r *run) startRunningTool(s toolSpec) error {
	if err := r.startTool(s); err != nil {
		return err
	}
	return r.toolReady(s)
}

// readOnlyTool runs a read-only tool call end to end without confirmation:
// start, streamed input, ready (confirmed "not-needed", so running), then the
// real result. It returns the tool output, or the error text when the tool
// failed (the failure is reported to the client as a failed result, not as
// an error of the turn).
func (r *run) readOnlyTool(s toolSpec, exec func() (string, error)) (out, failure string, err error) {
	if err := r.startTool(s); err != nil {
		return "", "", err
	}
	if err := r.pause(r.opts.Pace); err != nil {
		return "", "", err
	}
	if err := r.toolReady(s); err != nil {
		return "", "", err
	}
	if err := r.pause(r.opts.Pace * 3); err != nil {
		return "", "", err
	}
	out, toolErr := exec()
	result := ahpwire.ToolCallResult{Success: true, PastTenseMessage: ahpwire.MarkdownText(s.pastTense),
		Content: []ahpwire.ToolResultContent{ahpwire.TextContent(out)}}
	if toolErr != nil {
		failure = toolErr.Error()
		out = ""
		result = ahpwire.ToolCallResult{Success: false, PastTenseMessage: ahpwire.MarkdownText(s.failedTense),
			Content: []ahpwire.ToolResultContent{ahpwire.TextContent(failure)},
			Error:   &ahpwire.ToolError{Message: failure, Code: toolErrorCode(toolErr)}}
	}
	r.outBytes += len(out)
	if err := r.emit(&ahpwire.ChatToolCallComplete{TurnID: r.t.TurnID, ToolCallID: s.id, Result: result}); err != nil {
		return "", "", err
	}
	return out, failure, nil
}

// listFilesTool lists path in the working directory as a tool call.
func (r *run) listFilesTool(path string) (out, failure string, err error) {
	shown := path
	if shown == "" || shown == "." {
		shown = "."
	}
	return r.readOnlyTool(toolSpec{
		id: r.toolCallID(ToolListFiles), name: ToolListFiles, display: "List files",
		intention:   "See what is in the working directory",
		input:       toolInputJSON(kv{"path", shown}),
		invocation:  "Listing " + inlineCode(shown),
		pastTense:   "Listed " + inlineCode(shown),
		failedTense: "Could not list " + inlineCode(shown),
	}, func() (string, error) { return ListFiles(r.opts.Dir, path) })
}

// readFileTool reads path in the working directory as a tool call.
func (r *run) readFileTool(path string) (out, failure string, err error) {
	return r.readOnlyTool(toolSpec{
		id: r.toolCallID(ToolReadFile), name: ToolReadFile, display: "Read file",
		intention:   "Read the file before proposing a change",
		input:       toolInputJSON(kv{"path", path}),
		invocation:  "Reading " + inlineCode(path),
		pastTense:   "Read " + inlineCode(path),
		failedTense: "Could not read " + inlineCode(path),
	}, func() (string, error) { return ReadFile(r.opts.Dir, path) })
}
