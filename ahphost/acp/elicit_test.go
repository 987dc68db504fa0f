package acp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// pendingInput waits for the active turn's unanswered input request.
func (e *env) pendingInput(k *client2, chat string) ahpwire.ChatInputRequest {
	e.t.Helper()
	var req ahpwire.ChatInputRequest
	e.eventually("an input request", func() bool {
		st := e.chatState(k, chat)
		if st.ActiveTurn == nil {
			return false
		}
		for _, p := range st.ActiveTurn.ResponseParts.All() {
			if p.Kind == ahpwire.PartInputRequest && p.Request != nil && p.Response == "" {
				req = *p.Request
				return true
			}
		}
		return false
	})
	return req
}

// An agent's form elicitation (shaped as Claude Code's AskUserQuestion:
// a titled enum with its "_custom" free-text field, a boolean, a bounded
// integer) becomes an AHP input request with the fields in the agent's
// order (the fake agent's Go map writes them sorted); the user's answers go back typed as the schema says, the
// free-form text under its own field, and a draft answer set before the
// accept counts.
func TestElicitationFormAccepted(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "ask")
	e.prompt(e.c, chat, "t-ask", "ask")
	req := e.pendingInput(e.c, chat)
	if req.Message != "Which colour should the button be?" {
		t.Fatalf("message %q", req.Message)
	}
	var ids []string
	for _, q := range req.Questions {
		ids = append(ids, q.ID+"/"+q.Kind)
	}
	if got := strings.Join(ids, ","); got != "confirm/boolean,count/integer,question_0/single-select" {
		t.Fatalf("questions %s", got)
	}
	q0 := req.Questions[2]
	if q0.AllowFreeformInput == nil || !*q0.AllowFreeformInput || len(q0.Options) != 2 ||
		q0.Options[0].ID != "Red" || q0.Options[0].Description != "warm" || q0.Message != "Colour" {
		t.Fatalf("first question %+v", q0)
	}
	if c := req.Questions[0]; !c.IsRequired() || string(c.DefaultValue) != "true" {
		t.Fatalf("confirm %+v", c)
	}
	if c := req.Questions[1]; c.Min == nil || *c.Min != 1 || c.Max == nil || *c.Max != 9 {
		t.Fatalf("count %+v", c)
	}
	red := ahpwire.SelectedAnswer("Red")
	red.FreeformValues = []string{"with stripes"}
	three := ahpwire.NumberAnswer(3)
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatInputAnswerChanged{RequestID: req.ID, QuestionID: "count",
		Answer: &ahpwire.ChatInputAnswer{State: ahpwire.AnswerDraft, Value: &three}}); err != nil {
		t.Fatal(err)
	}
	yes := ahpwire.BoolAnswer(true)
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatInputCompleted{RequestID: req.ID, Response: ahpwire.InputAccept,
		Answers: map[string]ahpwire.ChatInputAnswer{
			"question_0": {State: ahpwire.AnswerSubmitted, Value: &red},
			"confirm":    {State: ahpwire.AnswerSubmitted, Value: &yes},
		}}); err != nil {
		t.Fatal(err)
	}
	turn := e.finished(e.c, chat, "t-ask")
	want := `accepted: confirm=true count=3 question_0="Red" question_0_custom="with stripes"`
	if got := markdown(turn); got != want {
		t.Fatalf("the agent got %q, want %q", got, want)
	}
}

// Decline and cancel reach the agent as such; a URL elicitation carries
// its URL and an accept has no content.
func TestElicitationDeclineCancelAndURL(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "ask2")
	for _, c := range []struct {
		id, text, response, want string
	}{
		{"t-decline", "ask", ahpwire.InputDecline, "declined"},
		{"t-cancel", "ask", ahpwire.InputCancel, "cancelled"},
		{"t-url", "ask url", ahpwire.InputAccept, "accepted:"},
	} {
		e.prompt(e.c, chat, c.id, c.text)
		req := e.pendingInput(e.c, chat)
		if c.text == "ask url" && (req.URL != "https://example.com/signin?state=1" || len(req.Questions) != 0) {
			t.Fatalf("url request %+v", req)
		}
		if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatInputCompleted{RequestID: req.ID, Response: c.response}); err != nil {
			t.Fatal(err)
		}
		if got := markdown(e.finished(e.c, chat, c.id)); got != c.want {
			t.Fatalf("%s: the agent got %q, want %q", c.id, got, c.want)
		}
	}
}

// A turn cancelled while the question waits answers the agent "cancel"
// and leaves no request waiting.
func TestElicitationTurnCancelled(t *testing.T) {
	e := newEnv(t, opts{})
	_, chat := e.newSession(e.c, "ask3")
	e.prompt(e.c, chat, "t-c", "ask")
	e.pendingInput(e.c, chat)
	if _, err := e.c.c.Dispatch(e.ctx, chat, &ahpwire.ChatTurnCancelled{TurnID: "t-c", Duration: ahpwire.Ptr[int64](0)}); err != nil {
		t.Fatal(err)
	}
	turn := e.finished(e.c, chat, "t-c")
	if turn.State != ahpwire.TurnCancelled {
		t.Fatalf("turn %s", turn.State)
	}
	// The next turn runs: the agent is not stuck in the cancelled question.
	if got := markdown(e.run(e.c, chat, "t-next", "text")); !strings.Contains(got, "Hello from the fake agent") {
		t.Fatalf("next turn %q", got)
	}
}

// Fields the client cannot show (a nested object) decline the form; the
// mapping keeps the agent's field order and folds "_custom" fields.
func TestFormQuestionsMapping(t *testing.T) {
	var schema struct {
		Properties map[string]any `json:"properties"`
	}
	raw := `{"properties":{"b":{"type":"array","items":{"enum":["x","y"]},"minItems":1},"a":{"type":"string","format":"email","maxLength":50},"b_custom":{"type":"string"},"n":{"type":"object"}}}`
	if err := json.Unmarshal([]byte(raw), &schema); err != nil {
		t.Fatal(err)
	}
	order := propertyOrder(json.RawMessage(raw))
	if strings.Join(order, ",") != "b,a,b_custom,n" {
		t.Fatalf("order %v", order)
	}
	s := elicitSchema(schema.Properties)
	if _, _, err := formQuestions(s, order); err == nil || !strings.Contains(err.Error(), `"n"`) {
		t.Fatalf("nested object: %v", err)
	}
	delete(s.Properties, "n")
	qs, custom, err := formQuestions(s, order)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 2 || qs[0].ID != "b" || qs[0].Kind != ahpwire.QuestionMultiSelect || qs[1].Format != "email" || custom["b"] != "b_custom" {
		t.Fatalf("questions %+v custom %v", qs, custom)
	}
	many := ahpwire.SelectedManyAnswer([]string{"x"})
	got := formContent(qs, custom, map[string]ahpwire.ChatInputAnswer{
		"b": {State: ahpwire.AnswerSubmitted, Value: &many, FreeformValues: []string{"z"}},
		"a": {State: ahpwire.AnswerSkipped},
	})
	b, _ := json.Marshal(got)
	if string(b) != `{"b":["x"],"b_custom":"z"}` {
		t.Fatalf("content %s", b)
	}
}

// elicitSchema is a form schema of props.
func elicitSchema(props map[string]any) sdk.UnstableElicitationSchema {
	return sdk.UnstableElicitationSchema{Type: "object", Properties: props}
}
