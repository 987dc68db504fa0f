package mockanthropic

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// start serves a mock on loopback for one test.
func start(t *testing.T) (*Server, string) {
	t.Helper()
	s := New(nil)
	u, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, u
}

// event is one server-sent event.
type event struct {
	name string
	data map[string]any
}

// post sends body to /v1/messages and reads the event stream.
func post(t *testing.T, ctx context.Context, u, body string) []event {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u+"/v1/messages", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var out []event
	sc := bufio.NewScanner(resp.Body)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("data %q: %v", line, err)
			}
			if d["type"] != name {
				t.Fatalf("event %s has type %v", name, d["type"])
			}
			out = append(out, event{name, d})
		}
	}
	return out
}

// summary folds events into block kinds, their text and the stop reason.
func summary(t *testing.T, evs []event) (kinds []string, texts []string, stop string) {
	t.Helper()
	if len(evs) < 2 || evs[0].name != "message_start" || evs[len(evs)-1].name != "message_stop" {
		t.Fatalf("stream not framed by message_start/message_stop: %v", evs)
	}
	for _, e := range evs {
		switch e.name {
		case "content_block_start":
			kinds = append(kinds, e.data["content_block"].(map[string]any)["type"].(string))
			texts = append(texts, "")
		case "content_block_delta":
			d := e.data["delta"].(map[string]any)
			i := int(e.data["index"].(float64))
			for _, k := range []string{"text", "thinking", "partial_json"} {
				if s, ok := d[k].(string); ok {
					texts[i] += s
				}
			}
		case "message_delta":
			stop = e.data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	return kinds, texts, stop
}

func TestHeadProbe(t *testing.T) {
	s, u := start(t)
	resp, err := http.Head(u + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("HEAD: %v %v", resp, err)
	}
	resp.Body.Close()
	if got := s.Requests(); len(got) != 1 || got[0].Method != "HEAD" {
		t.Fatalf("log %+v", got)
	}
}

// TestPlainText: the last *user* message scripts the reply, with system
// messages after it and <system-reminder> blocks ignored.
func TestPlainText(t *testing.T) {
	_, u := start(t)
	body := `{"model":"m","stream":true,"messages":[
		{"role":"user","content":"old question"},
		{"role":"assistant","content":"old answer"},
		{"role":"user","content":[{"type":"text","text":"bash: an older prompt merged in"},{"type":"text","text":"<system-reminder>ctx</system-reminder>"},{"type":"text","text":"<local-command-caveat>x</local-command-caveat>\nhello mock"},{"type":"text","text":"<system-reminder>late</system-reminder>"}]},
		{"role":"system","content":"bash: rm -rf /"}]}`
	kinds, texts, stop := summary(t, post(t, context.Background(), u, body))
	if strings.Join(kinds, ",") != "text" || texts[0] != "Hello from the mock. You said: hello mock" || stop != "end_turn" {
		t.Fatalf("%v %q %s", kinds, texts, stop)
	}
}

func TestThinking(t *testing.T) {
	_, u := start(t)
	kinds, texts, _ := summary(t, post(t, context.Background(), u, `{"stream":true,"messages":[{"role":"user","content":"think hard"}]}`))
	if strings.Join(kinds, ",") != "thinking,text" || !strings.Contains(texts[0], "think") || !strings.Contains(texts[1], "42") {
		t.Fatalf("%v %q", kinds, texts)
	}
}

// TestBashToolRoundTrip: a Bash tool_use, then after the tool_result a final text.
func TestBashToolRoundTrip(t *testing.T) {
	_, u := start(t)
	kinds, texts, stop := summary(t, post(t, context.Background(), u,
		`{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"bash: touch made.txt"}]}`))
	if strings.Join(kinds, ",") != "text,tool_use" || stop != "tool_use" {
		t.Fatalf("%v %s", kinds, stop)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(texts[1]), &in); err != nil || in["command"] != "touch made.txt" {
		t.Fatalf("input %q: %v", texts[1], err)
	}
	_, texts, stop = summary(t, post(t, context.Background(), u, `{"stream":true,"tools":[{"name":"Bash"}],"messages":[
		{"role":"user","content":"bash: touch made.txt"},
		{"role":"assistant","content":[{"type":"text","text":"I will"},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"touch made.txt"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]}`))
	if texts[0] != "The command ran." || stop != "end_turn" {
		t.Fatalf("after result: %q %s", texts, stop)
	}
	_, texts, _ = summary(t, post(t, context.Background(), u, `{"stream":true,"messages":[
		{"role":"user","content":"bash: touch x"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":[{"type":"text","text":"User refused permission"}]},{"type":"text","text":"<system-reminder>x</system-reminder>"}]}]}`))
	if texts[0] != "The command did not run: User refused permission" {
		t.Fatalf("after refusal: %q", texts)
	}
	// A new prompt merged into the message with the previous turn's
	// tool_result (Claude Code's order: results first) is a new turn: the
	// assistant's message did not end with that tool_use.
	kinds, _, stop = summary(t, post(t, context.Background(), u, `{"stream":true,"tools":[{"name":"Bash"}],"messages":[
		{"role":"user","content":"bash: touch made.txt"},
		{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}},{"type":"text","text":"The command ran."}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"bash: touch second.txt"}]}]}`))
	if strings.Join(kinds, ",") != "text,tool_use" || stop != "tool_use" {
		t.Fatalf("merged prompt: %v %s", kinds, stop)
	}
	// The current adapter (0.101) gathers a message's texts before its
	// tool_use blocks (assistant) and after its tool results (user): the
	// prompt that asked for the tool follows its result (answered as a
	// result), and words after a result the mock answered already are a
	// new prompt.
	_, texts, _ = summary(t, post(t, context.Background(), u, `{"stream":true,"tools":[{"name":"Bash"}],"messages":[
		{"role":"assistant","content":[{"type":"text","text":"I will"},{"type":"tool_use","id":"t9","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","is_error":true,"content":"User refused permission"},{"type":"text","text":"bash: touch made.txt"}]}]}`))
	if texts[0] != "The command did not run: User refused permission" {
		t.Fatalf("a result with the old prompt after it: %q", texts)
	}
	kinds, _, stop = summary(t, post(t, context.Background(), u, `{"stream":true,"tools":[{"name":"Bash"}],"messages":[
		{"role":"user","content":"bash: touch made.txt"},
		{"role":"assistant","content":[{"type":"text","text":"I will"},{"type":"text","text":"The command ran."},{"type":"tool_use","id":"t1","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"bash: touch third.txt"}]}]}`))
	if strings.Join(kinds, ",") != "text,tool_use" || stop != "tool_use" {
		t.Fatalf("merged prompt after gathered texts: %v %s", kinds, stop)
	}
	// Without a Bash tool on offer (a title request), no tool_use.
	kinds, _, _ = summary(t, post(t, context.Background(), u, `{"stream":true,"messages":[{"role":"user","content":"bash: touch x"}]}`))
	if strings.Join(kinds, ",") != "text" {
		t.Fatalf("tool_use without tools: %v", kinds)
	}
}

// TestMarkdownDeltas: N bytes of markdown in 20–60-byte deltas.
func TestMarkdownDeltas(t *testing.T) {
	_, u := start(t)
	evs := post(t, context.Background(), u, `{"stream":true,"messages":[{"role":"user","content":"markdown 5000"}]}`)
	_, texts, _ := summary(t, evs)
	if len(texts[0]) != 5000 || !strings.Contains(texts[0], "## Section") {
		t.Fatalf("len %d", len(texts[0]))
	}
	deltas := 0
	for i, e := range evs {
		if e.name != "content_block_delta" {
			continue
		}
		deltas++
		n := len(e.data["delta"].(map[string]any)["text"].(string))
		last := evs[i+1].name == "content_block_stop"
		if n > 60 || (n < 20 && !last) {
			t.Fatalf("delta of %d bytes", n)
		}
	}
	if deltas < 5000/60 {
		t.Fatalf("%d deltas", deltas)
	}
}

// TestNonStreamingAndCountTokens: a request without stream gets one message.
func TestNonStreamingAndCountTokens(t *testing.T) {
	_, u := start(t)
	resp, err := http.Post(u+"/v1/messages", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"think"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Type       string                  `json:"type"`
		StopReason string                  `json:"stop_reason"`
		Content    []struct{ Type string } `json:"content"`
	}
	err = json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if err != nil || m.Type != "message" || m.StopReason != "end_turn" || len(m.Content) != 2 || m.Content[0].Type != "thinking" {
		t.Fatalf("%+v %v", m, err)
	}
	resp, err = http.Post(u+"/v1/messages/count_tokens", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		InputTokens int `json:"input_tokens"`
	}
	err = json.NewDecoder(resp.Body).Decode(&c)
	resp.Body.Close()
	if err != nil || c.InputTokens <= 0 {
		t.Fatalf("count %+v %v", c, err)
	}
	resp, _ = http.Post(u+"/v1/messages", "application/json", strings.NewReader(`{`))
	if resp.StatusCode != 400 {
		t.Fatalf("bad body: %d", resp.StatusCode)
	}
	resp.Body.Close()
}

// TestSlowStreamEndsWithClient: a client that goes away ends the stream.
func TestSlowStreamEndsWithClient(t *testing.T) {
	s, u := start(t)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u+"/v1/messages", strings.NewReader(`{"stream":true,"messages":[{"role":"user","content":"slow please"}]}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), "word1 ") {
	}
	cancel()
	resp.Body.Close()
	done := make(chan struct{})
	go func() { _ = s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end the cancelled stream")
	}
}

// TestScriptedFailures: "overloaded N" fails N times with 529, then answers;
// "down" always fails.
func TestScriptedFailures(t *testing.T) {
	_, u := start(t)
	status := func(prompt string) int {
		resp, err := http.Post(u+"/v1/messages", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"`+prompt+`"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	var got []int
	for i := 0; i < 3; i++ {
		got = append(got, status("overloaded 2 please"))
	}
	if got[0] != 529 || got[1] != 529 || got[2] != 200 {
		t.Fatalf("overloaded 2: %v", got)
	}
	for i := 0; i < 2; i++ {
		if status("down now") != 529 {
			t.Fatalf("down answered (request %d)", i+1)
		}
	}
}
