package mockanthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestAskToolRoundTrip: "ask:" is an AskUserQuestion tool_use with the
// options named, only when the request offers the tool; the result comes
// back as "Answer received: …".
func TestAskToolRoundTrip(t *testing.T) {
	_, u := start(t)
	kinds, texts, stop := summary(t, post(t, context.Background(), u,
		`{"stream":true,"tools":[{"name":"AskUserQuestion"}],"messages":[{"role":"user","content":"ask: Which colour? Red | Blue"}]}`))
	if strings.Join(kinds, ",") != "text,tool_use" || stop != "tool_use" {
		t.Fatalf("%v %s", kinds, stop)
	}
	var in struct {
		Questions []struct {
			Question string `json:"question"`
			Options  []struct {
				Label string `json:"label"`
			} `json:"options"`
		} `json:"questions"`
	}
	if err := json.Unmarshal([]byte(texts[1]), &in); err != nil || len(in.Questions) != 1 ||
		in.Questions[0].Question != "Which colour?" || len(in.Questions[0].Options) != 2 || in.Questions[0].Options[1].Label != "Blue" {
		t.Fatalf("input %q: %v", texts[1], err)
	}
	_, texts, _ = summary(t, post(t, context.Background(), u, `{"stream":true,"tools":[{"name":"AskUserQuestion"}],"messages":[
		{"role":"user","content":"ask: Which colour? Red | Blue"},
		{"role":"assistant","content":[{"type":"text","text":"I need"},{"type":"tool_use","id":"t1","name":"AskUserQuestion","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"User has answered your questions: \"Which colour?\"=\"Blue\""}]}]}`))
	if texts[0] != `Answer received: User has answered your questions: "Which colour?"="Blue"` {
		t.Fatalf("after the answer: %q", texts)
	}
	// Without the tool offered it is an ordinary prompt.
	_, texts, _ = summary(t, post(t, context.Background(), u, `{"stream":true,"messages":[{"role":"user","content":"ask: Which colour? Red | Blue"}]}`))
	if !strings.HasPrefix(texts[0], "Hello from the mock.") {
		t.Fatalf("without the tool: %q", texts)
	}
}
