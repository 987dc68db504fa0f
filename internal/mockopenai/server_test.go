package mockopenai

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

// chat posts a streamed request and folds the chunks into the text and
// the tool call (name and arguments) they carry, with the status.
func chat(t *testing.T, u, body string) (code int, text, call, args string) {
	t.Helper()
	resp, err := http.Post(u+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return resp.StatusCode, "", "", ""
	}
	sc := bufio.NewScanner(resp.Body)
	var done bool
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if d == "[DONE]" {
			done = true
			continue
		}
		var ev struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(d), &ev); err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		for _, c := range ev.Choices {
			text += c.Delta.Content
			for _, tc := range c.Delta.ToolCalls {
				call, args = call+tc.Function.Name, args+tc.Function.Arguments
			}
		}
	}
	if !done {
		t.Fatal("no [DONE]")
	}
	return 200, text, call, args
}

const tools = `"stream":true,"tools":[{"type":"function","function":{"name":"bash"}},{"type":"function","function":{"name":"edit"}}]`

// The scripts: an echo, a bash call and what follows its result (ran or
// rejected), an edit call in the system prompt's working directory, and
// scripted failures.
func TestScripts(t *testing.T) {
	u := start(t)
	if _, text, _, _ := chat(t, u, `{"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"hello"}]}]}`); text != "Hello from the mock. You said: hello" {
		t.Fatalf("echo %q", text)
	}
	_, _, call, args := chat(t, u, `{`+tools+`,"messages":[{"role":"user","content":"bash: touch x"}]}`)
	if call != "bash" || !strings.Contains(args, `"command":"touch x"`) {
		t.Fatalf("bash call %q %s", call, args)
	}
	after := `{` + tools + `,"messages":[{"role":"user","content":"bash: touch x"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"%s"}]}`
	if _, text, _, _ := chat(t, u, strings.Replace(after, "%s", "ok", 1)); text != "The command ran." {
		t.Fatalf("after the command: %q", text)
	}
	if _, text, _, _ := chat(t, u, strings.Replace(after, "%s", "The user rejected permission to use this specific tool call.", 1)); !strings.HasPrefix(text, "The command did not run") {
		t.Fatalf("after a rejection: %q", text)
	}
	_, _, call, args = chat(t, u, `{`+tools+`,"messages":[{"role":"system","content":"Working directory: /w"},{"role":"user","content":"edit: a.txt x = 1 => x = 2"}]}`)
	if call != "edit" || !strings.Contains(args, `"filePath":"/w/a.txt"`) || !strings.Contains(args, `"oldString":"x = 1"`) {
		t.Fatalf("edit call %q %s", call, args)
	}
	var codes []int
	for i := 0; i < 3; i++ {
		c, _, _, _ := chat(t, u, `{"stream":true,"messages":[{"role":"user","content":"overloaded 2 hi"}]}`)
		codes = append(codes, c)
	}
	if codes[0] != 429 || codes[1] != 429 || codes[2] != 200 {
		t.Fatalf("overloaded 2: %v", codes)
	}
}
