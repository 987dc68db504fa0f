package mockgemini

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func start(t *testing.T) string {
	t.Helper()
	s := New(nil)
	u, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return u
}

// post sends body to a model method and returns the status and the parts
// of the answer (every streamed event's parts, in order).
func post(t *testing.T, u, verb, body string) (int, []Part) {
	t.Helper()
	resp, err := http.Post(u+"/v1beta/models/m:"+verb+"?alt=sse", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var parts []Part
	add := func(b []byte) {
		var r struct {
			Candidates []struct {
				Content Content `json:"content"`
			} `json:"candidates"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		for _, c := range r.Candidates {
			parts = append(parts, c.Content.Parts...)
		}
	}
	if resp.StatusCode != 200 {
		return resp.StatusCode, nil
	}
	if verb == "streamGenerateContent" {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				add([]byte(d))
			}
		}
		return resp.StatusCode, parts
	}
	var raw json.RawMessage
	_ = json.NewDecoder(resp.Body).Decode(&raw)
	add(raw)
	return resp.StatusCode, parts
}

func text(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

const shellTool = `"tools":[{"functionDeclarations":[{"name":"run_shell_command","parametersJsonSchema":{"type":"object","required":["command"],"properties":{"command":{"type":"string"}}}},{"name":"replace","parametersJsonSchema":{"type":"object","required":["file_path","old_string","new_string","instruction"],"properties":{"file_path":{},"old_string":{},"new_string":{},"instruction":{}}}}]}]`

// The scripts: an echo, a shell call and what follows its response (ran,
// or refused), an edit call in the stated working directory, JSON that
// fits a requested schema, scripted failures.
func TestScripts(t *testing.T) {
	u := start(t)
	if _, p := post(t, u, "streamGenerateContent", `{"contents":[{"role":"user","parts":[{"text":"<ctx>"},{"text":"hello"}]}]}`); text(p) != "Hello from the mock. You said: hello" {
		t.Fatalf("echo %q", text(p))
	}
	_, p := post(t, u, "streamGenerateContent", `{`+shellTool+`,"contents":[{"role":"user","parts":[{"text":"bash: touch x"}]}]}`)
	var call *FunctionCall
	for _, q := range p {
		if q.FunctionCall != nil {
			call = q.FunctionCall
		}
	}
	if call == nil || call.Name != "run_shell_command" || call.Args["command"] != "touch x" {
		t.Fatalf("shell call %+v", p)
	}
	ran := `{"contents":[{"role":"user","parts":[{"text":"bash: touch x"}]},{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{%s}}}]}]}`
	if _, p := post(t, u, "generateContent", strings.Replace(ran, "%s", `"output":"ok"`, 1)); text(p) != "The command ran." {
		t.Fatalf("after the shell: %q", text(p))
	}
	if _, p := post(t, u, "generateContent", strings.Replace(ran, "%s", `"error":"canceled by the user"`, 1)); !strings.HasPrefix(text(p), "The command did not run") {
		t.Fatalf("after a refusal: %q", text(p))
	}
	_, p = post(t, u, "generateContent", `{`+shellTool+`,"contents":[{"role":"user","parts":[{"text":"I'm currently working in the directory: /w"}]},{"role":"user","parts":[{"text":"edit: a.txt x = 1 => x = 2"}]}]}`)
	call = nil
	for _, q := range p {
		if q.FunctionCall != nil {
			call = q.FunctionCall
		}
	}
	if call == nil || call.Name != "replace" || call.Args["file_path"] != "/w/a.txt" || call.Args["old_string"] != "x = 1" || call.Args["instruction"] == nil {
		t.Fatalf("edit call %+v", call)
	}
	_, p = post(t, u, "generateContent", `{"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"next_speaker":{"type":"string","enum":["model","user"]},"reasoning":{"type":"string"}}}},"contents":[{"role":"user","parts":[{"text":"who next"}]}]}`)
	var v map[string]any
	if err := json.Unmarshal([]byte(text(p)), &v); err != nil || v["next_speaker"] != "user" {
		t.Fatalf("schema answer %q: %v", text(p), err)
	}
	var codes []int
	for i := 0; i < 3; i++ {
		c, _ := post(t, u, "generateContent", `{"contents":[{"role":"user","parts":[{"text":"overloaded 2 hi"}]}]}`)
		codes = append(codes, c)
	}
	if codes[0] != 503 || codes[1] != 503 || codes[2] != 200 {
		t.Fatalf("overloaded 2: %v", codes)
	}
}
