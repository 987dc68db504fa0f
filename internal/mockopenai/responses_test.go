package mockopenai

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// respond posts a streamed Responses request and folds its events into
// the text, the call (name, and arguments or input) and the events'
// types in order.
func respond(t *testing.T, u, body string) (text, call, args string, types []string) {
	t.Helper()
	resp, err := http.Post(u+"/v1/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	var event string
	for sc.Scan() {
		if e, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			event = e
			continue
		}
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type  string `json:"type"`
			Delta string `json:"delta"`
			Item  struct {
				Type, Name, Arguments, Input string
				CallID                       string `json:"call_id"`
			} `json:"item"`
		}
		if err := json.Unmarshal([]byte(d), &ev); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if ev.Type != event {
			t.Fatalf("event %q carries type %q", event, ev.Type)
		}
		types = append(types, ev.Type)
		switch ev.Type {
		case "response.output_text.delta":
			text += ev.Delta
		case "response.output_item.done":
			if ev.Item.Type == "function_call" || ev.Item.Type == "custom_tool_call" {
				if ev.Item.CallID == "" {
					t.Fatalf("a call without call_id: %s", d)
				}
				call, args = ev.Item.Type+":"+ev.Item.Name, ev.Item.Arguments+ev.Item.Input
			}
		}
	}
	return text, call, args, types
}

const codexTools = `"stream":true,"tools":[{"type":"function","name":"exec_command"},{"type":"custom","name":"apply_patch"}]`

func user(text string) string {
	return `{"type":"message","role":"user","content":[{"type":"input_text","text":` + quote(text) + `}]}`
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Codex's conversation: context in tagged user messages is skipped; a
// prompt is echoed; "bash:" calls exec_command asking to leave the
// sandbox (so the user is asked); "edit:" calls the custom apply_patch
// tool with a patch; what follows a call's output says how it went.
func TestResponsesScripts(t *testing.T) {
	u := start(t)
	ctx := user("<environment_context>\n  <cwd>/w</cwd>\n</environment_context>")
	text, call, _, types := respond(t, u, `{"stream":true,"input":[`+ctx+`,`+user("hello")+`]}`)
	if text != "Hello from the mock. You said: hello" || call != "" {
		t.Fatalf("echo %q %q", text, call)
	}
	if types[0] != "response.created" || types[len(types)-1] != "response.completed" {
		t.Fatalf("events %v", types)
	}
	title := "Return exactly one JSON object and nothing else: {\"title\": \"your title here\"}\n\nUser's first message:\nbash: touch a file now"
	if text, _, _, _ := respond(t, u, `{"stream":true,"input":[`+user(title)+`]}`); text != `{"title":"Mock: bash: touch a file"}` {
		t.Fatalf("title %q", text)
	}
	_, call, args, _ := respond(t, u, `{`+codexTools+`,"input":[`+ctx+`,`+user("bash: touch x")+`]}`)
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil || call != "function_call:exec_command" || a["cmd"] != "touch x" ||
		a["sandbox_permissions"] != "require_escalated" {
		t.Fatalf("shell call %q %s", call, args)
	}
	_, call, args, _ = respond(t, u, `{`+codexTools+`,"input":[`+user("edit: a.txt x = 1 => x = 2")+`]}`)
	if call != "custom_tool_call:apply_patch" || args != "*** Begin Patch\n*** Update File: a.txt\n@@\n-x = 1\n+x = 2\n*** End Patch\n" {
		t.Fatalf("edit call %q %q", call, args)
	}
	after := func(tool, kind, output string) string {
		text, _, _, _ := respond(t, u, `{`+codexTools+`,"input":[`+user("go")+`,{"type":"`+kind+`","name":"`+tool+`","call_id":"c1"},{"type":"`+kind+`_output","call_id":"c1","output":`+quote(output)+`}]}`)
		return text
	}
	if got := after("exec_command", "function_call", "Process exited with code 0"); got != "The command ran." {
		t.Fatalf("after the command: %q", got)
	}
	if got := after("exec_command", "function_call", "exec command rejected by user"); !strings.HasPrefix(got, "The command did not run") {
		t.Fatalf("after a rejection: %q", got)
	}
	if got := after("apply_patch", "custom_tool_call", "Success. Updated the following files:\nM a.txt"); got != "The edit was made." {
		t.Fatalf("after the patch: %q", got)
	}
	if got := after("apply_patch", "custom_tool_call", "patch rejected by user"); !strings.HasPrefix(got, "The edit was not made") {
		t.Fatalf("after a rejected patch: %q", got)
	}
}

// A request without stream gets the whole response; scripted failures
// answer as for chat completions.
func TestResponsesWholeAndFailures(t *testing.T) {
	u := start(t)
	resp, err := http.Post(u+"/v1/responses", "application/json", strings.NewReader(`{"input":[`+user("hi")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Status string `json:"status"`
		Output []struct {
			Content []struct{ Text string } `json:"content"`
		} `json:"output"`
	}
	err = json.NewDecoder(resp.Body).Decode(&o)
	resp.Body.Close()
	if err != nil || o.Status != "completed" || len(o.Output) != 1 || o.Output[0].Content[0].Text != "Hello from the mock. You said: hi" {
		t.Fatalf("whole response %+v %v", o, err)
	}
	resp, err = http.Post(u+"/v1/responses", "application/json", strings.NewReader(`{"input":[`+user("down now")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 {
		t.Fatalf("down: %d", resp.StatusCode)
	}
}
