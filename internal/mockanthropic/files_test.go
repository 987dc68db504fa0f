package mockanthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// fileTools offers Claude Code's file tools and states the working
// directory as Claude Code's system prompt does.
const fileTools = `"stream":true,"tools":[{"name":"Read"},{"name":"Edit"},{"name":"Write"},{"name":"Bash"}],
	"system":[{"type":"text","text":"You are Claude Code."},{"type":"text","text":"# Environment\n - Primary working directory: /work/proj\n  - Is a git repository: false\n"}]`

// toolInput is the input of the reply's tool_use (its last block).
func toolInput(t *testing.T, evs []event) map[string]any {
	t.Helper()
	kinds, texts, stop := summary(t, evs)
	if strings.Join(kinds, ",") != "text,tool_use" || stop != "tool_use" {
		t.Fatalf("want text,tool_use: %v %q %s", kinds, texts, stop)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(texts[1]), &in); err != nil {
		t.Fatalf("input %q: %v", texts[1], err)
	}
	return in
}

// toolName is the name of the reply's tool_use.
func toolName(t *testing.T, evs []event) string {
	t.Helper()
	for _, e := range evs {
		if e.name == "content_block_start" {
			if cb := e.data["content_block"].(map[string]any); cb["type"] == "tool_use" {
				return cb["name"].(string)
			}
		}
	}
	return ""
}

// TestEditReadsThenEdits: "edit: FILE OLD => NEW" reads FILE (joined to
// the system prompt's working directory), then after the Read's result
// edits it, then after the Edit's result says how it went.
func TestEditReadsThenEdits(t *testing.T) {
	_, u := start(t)
	ctx := context.Background()
	evs := post(t, ctx, u, `{`+fileTools+`,"messages":[{"role":"user","content":"edit: notes.txt hello world => goodbye world"}]}`)
	in := toolInput(t, evs)
	if toolName(t, evs) != "Read" || in["file_path"] != "/work/proj/notes.txt" {
		t.Fatalf("first step: %s %v", toolName(t, evs), in)
	}
	history := `{"role":"user","content":"edit: notes.txt hello world => goodbye world"},
		{"role":"assistant","content":[{"type":"text","text":"I will read"},{"type":"tool_use","id":"r1","name":"Read","input":{"file_path":"/work/proj/notes.txt"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"r1","content":"     1\u2192hello world\n     2\u2192\n\n<system-reminder>x</system-reminder>\n"}]}`
	evs = post(t, ctx, u, `{`+fileTools+`,"messages":[`+history+`]}`)
	in = toolInput(t, evs)
	if toolName(t, evs) != "Edit" || in["file_path"] != "/work/proj/notes.txt" || in["old_string"] != "hello world" || in["new_string"] != "goodbye world" {
		t.Fatalf("second step: %s %v", toolName(t, evs), in)
	}
	edit := `,{"role":"assistant","content":[{"type":"tool_use","id":"e1","name":"Edit","input":{}}]}`
	_, texts, stop := summary(t, post(t, ctx, u, `{`+fileTools+`,"messages":[`+history+edit+`,
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"e1","content":"The file has been updated."}]}]}`))
	if texts[0] != "The edit was made." || stop != "end_turn" {
		t.Fatalf("after the edit: %q %s", texts, stop)
	}
	_, texts, _ = summary(t, post(t, ctx, u, `{`+fileTools+`,"messages":[`+history+edit+`,
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"e1","is_error":true,"content":"User refused permission to run tool"}]}]}`))
	if texts[0] != "The edit was not made: User refused permission to run tool" {
		t.Fatalf("after a denied edit: %q", texts)
	}
	// A Read that fails ends the edit.
	_, texts, _ = summary(t, post(t, ctx, u, `{`+fileTools+`,"messages":[
		{"role":"user","content":"edit: gone.txt a => b"},
		{"role":"assistant","content":[{"type":"tool_use","id":"r2","name":"Read","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"r2","is_error":true,"content":"File does not exist."}]}]}`))
	if texts[0] != "The edit was not made: File does not exist." {
		t.Fatalf("after a failed read: %q", texts)
	}
}

// TestReadAndWrite: "read: FILE" and "write: FILE TEXT" (or the content
// on the lines after FILE); an absolute FILE is kept.
func TestReadAndWrite(t *testing.T) {
	_, u := start(t)
	ctx := context.Background()
	evs := post(t, ctx, u, `{`+fileTools+`,"messages":[{"role":"user","content":"read: /etc/hostname"}]}`)
	if in := toolInput(t, evs); toolName(t, evs) != "Read" || in["file_path"] != "/etc/hostname" {
		t.Fatalf("read: %v", in)
	}
	_, texts, _ := summary(t, post(t, ctx, u, `{`+fileTools+`,"messages":[
		{"role":"user","content":"read: a.txt"},
		{"role":"assistant","content":[{"type":"tool_use","id":"r1","name":"Read","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"r1","content":"     1\u2192first\n     2\u2192second\n     3\u2192\n"}]}]}`))
	if texts[0] != "The file has 2 lines. The first says: first" {
		t.Fatalf("after read: %q", texts)
	}
	evs = post(t, ctx, u, `{`+fileTools+`,"messages":[{"role":"user","content":"write: sub/new.txt brand new"}]}`)
	if in := toolInput(t, evs); toolName(t, evs) != "Write" || in["file_path"] != "/work/proj/sub/new.txt" || in["content"] != "brand new\n" {
		t.Fatalf("write: %v", in)
	}
	evs = post(t, ctx, u, `{`+fileTools+`,"messages":[{"role":"user","content":"write: new.txt\nline 1\nline 2\n"}]}`)
	if in := toolInput(t, evs); in["content"] != "line 1\nline 2\n" {
		t.Fatalf("write with lines: %v", in)
	}
	_, texts, _ = summary(t, post(t, ctx, u, `{`+fileTools+`,"messages":[
		{"role":"user","content":"write: new.txt x"},
		{"role":"assistant","content":[{"type":"tool_use","id":"w1","name":"Write","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"w1","content":"File created successfully"}]}]}`))
	if texts[0] != "The file was written." {
		t.Fatalf("after write: %q", texts)
	}
	// Without the tools on offer (a title request), or without " => ", no tool_use.
	for _, body := range []string{
		`{"stream":true,"messages":[{"role":"user","content":"edit: a.txt x => y"}]}`,
		`{` + fileTools + `,"messages":[{"role":"user","content":"edit: a.txt no arrow"}]}`,
	} {
		if kinds, _, _ := summary(t, post(t, ctx, u, body)); strings.Join(kinds, ",") != "text" {
			t.Fatalf("%s: %v", body, kinds)
		}
	}
}

func TestWorkDir(t *testing.T) {
	for sys, want := range map[string]string{
		`"Working directory: /a/b\nmore"`: "/a/b",
		`[{"type":"text","text":"x"},{"type":"text","text":" - Primary working directory: /c d\n"}]`: "/c d",
		`"none"`: "",
		``:       "",
	} {
		r := Request{System: json.RawMessage(sys)}
		if got := r.WorkDir(); got != want {
			t.Errorf("%s: %q, want %q", sys, got, want)
		}
	}
}
