package mockanthropic

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// fileOp is a scripted file prompt: "read: FILE", "write: FILE CONTENT"
// (or CONTENT on the lines after FILE) or "edit: FILE OLD => NEW".
type fileOp struct {
	verb     string // read, write or edit
	path     string // absolute when the working directory is known
	old, new string // edit
	content  string // write
}

// tool is the Claude Code tool that performs the op.
func (op fileOp) tool() string {
	return map[string]string{"read": "Read", "write": "Write", "edit": "Edit"}[op.verb]
}

// parseFileOp reads a file prompt; a relative FILE is joined to cwd.
func parseFileOp(p, cwd string) (fileOp, bool) {
	lower := strings.ToLower(p)
	var op fileOp
	for _, v := range []string{"read", "write", "edit"} {
		if strings.HasPrefix(lower, v+":") {
			op.verb = v
		}
	}
	if op.verb == "" {
		return op, false
	}
	rest := strings.TrimLeft(p[len(op.verb)+1:], " \t")
	name, args := rest, ""
	if i := strings.IndexAny(rest, " \t\n"); i >= 0 {
		name, args = rest[:i], rest[i:]
	}
	if name == "" {
		return op, false
	}
	op.path = name
	if !filepath.IsAbs(name) && cwd != "" {
		op.path = filepath.Join(cwd, name)
	}
	switch op.verb {
	case "write":
		if body, ok := strings.CutPrefix(strings.TrimLeft(args, " \t"), "\n"); ok {
			op.content = strings.TrimSuffix(body, "\n") + "\n" // the prompt comes trimmed
		} else {
			op.content = strings.TrimSpace(args) + "\n"
		}
	case "edit":
		old, nw, ok := strings.Cut(strings.TrimSpace(args), " => ")
		if !ok || old == "" {
			return op, false
		}
		op.old, op.new = old, nw
	}
	return op, true
}

// WorkDir is the session's working directory as Claude Code states it in
// the system prompt's environment section ("Primary working directory:"
// or "Working directory:"), or "" when the request has none.
func (r *Request) WorkDir() string {
	var text string
	var s string
	if json.Unmarshal(r.System, &s) == nil {
		text = s
	} else {
		var bs []inBlock
		_ = json.Unmarshal(r.System, &bs)
		for _, b := range bs {
			text += b.Text + "\n"
		}
	}
	for _, key := range []string{"Primary working directory: ", "Working directory: "} {
		if i := strings.Index(text, key); i >= 0 {
			dir, _, _ := strings.Cut(text[i+len(key):], "\n")
			return strings.TrimSpace(dir)
		}
	}
	return ""
}

// fileTool answers a file prompt with its tool_use. An edit reads the
// file first: Claude Code refuses to edit a file not read in the session.
func (r *Request) fileTool(p string) (Reply, bool) {
	op, ok := parseFileOp(p, r.WorkDir())
	if !ok || !r.offersTool(op.tool()) {
		return Reply{}, false
	}
	switch op.verb {
	case "read":
		return toolReply("I will read "+op.path+".", "Read", map[string]any{"file_path": op.path}), true
	case "write":
		return toolReply("I will write "+op.path+".", "Write", map[string]any{"file_path": op.path, "content": op.content}), true
	}
	if !r.offersTool("Read") {
		return op.editReply(), true
	}
	return toolReply("I will read "+op.path+" first.", "Read", map[string]any{"file_path": op.path}), true
}

// editReply is the Edit tool_use of an edit prompt.
func (op fileOp) editReply() Reply {
	return toolReply("I will change "+op.path+".", "Edit",
		map[string]any{"file_path": op.path, "old_string": op.old, "new_string": op.new})
}

func toolReply(say, name string, input map[string]any) Reply {
	return Reply{Blocks: []Block{
		{Type: "text", Text: say},
		{Type: "tool_use", Name: name, Input: input}, // the server numbers its ID
	}, StopReason: "tool_use"}
}

// afterFileTool answers the result of a Read, Write or Edit: an edit's
// Read goes on to the Edit; anything else ends with a text saying how it
// went. ok is false for other tools.
func (r *Request) afterFileTool(tr *inBlock) (Reply, bool) {
	tu := r.lastToolUse()
	if tu == nil {
		return Reply{}, false
	}
	res := resultText(tr.Content)
	var text string
	switch tu.Name {
	case "Read":
		op, ok := parseFileOp(r.userWords(), r.WorkDir())
		switch {
		case ok && op.verb == "edit" && tr.IsError:
			text = "The edit was not made: " + firstLine(res)
		case ok && op.verb == "edit" && r.offersTool("Edit"):
			return op.editReply(), true
		case tr.IsError:
			text = "The file could not be read: " + firstLine(res)
		default:
			lines := readLines(res)
			first := ""
			if len(lines) > 0 {
				first = lines[0]
			}
			text = fmt.Sprintf("The file has %d lines. The first says: %s", len(lines), first)
		}
	case "Edit":
		text = "The edit was made."
		if tr.IsError {
			text = "The edit was not made: " + firstLine(res)
		}
	case "Write":
		text = "The file was written."
		if tr.IsError {
			text = "The file was not written: " + firstLine(res)
		}
	default:
		return Reply{}, false
	}
	return Reply{Blocks: []Block{{Type: "text", Text: text}}, StopReason: "end_turn"}, true
}

// readLines is the file's lines in a Read result ("     1→text" or
// "     1\ttext" per line), without the numbers and the reminders Claude
// Code appends.
func readLines(res string) []string {
	var out []string
	for _, l := range strings.Split(stripTags(res), "\n") {
		t := strings.TrimLeft(l, " ")
		i := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 {
			continue
		}
		if rest, ok := strings.CutPrefix(t[i:], "→"); ok {
			out = append(out, rest)
		} else if rest, ok := strings.CutPrefix(t[i:], "\t"); ok {
			out = append(out, rest)
		}
	}
	if n := len(out); n > 0 && out[n-1] == "" { // the numbered empty line after a final newline
		out = out[:n-1]
	}
	return out
}
