package demo

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// inputRequest is the request of "/demo input" for turn turnID: one
// question of every kind; the single-select accepts free-form input.
func inputRequest(turnID string) ahpwire.ChatInputRequest {
	yes := ahpwire.Ptr(true)
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	return ahpwire.ChatInputRequest{
		ID:      turnID + ".input",
		Message: "Before I scaffold the project I need a few details.",
		Questions: []ahpwire.ChatInputQuestion{
			{Kind: ahpwire.QuestionText, ID: "name", Title: "Project name", Message: "What should the project be called?",
				Required: yes, Min: ahpwire.Ptr(1.0), Max: ahpwire.Ptr(40.0), DefaultValue: raw("my-project")},
			{Kind: ahpwire.QuestionNumber, ID: "hours", Title: "Time budget", Message: "How many hours can we spend on it?",
				Min: ahpwire.Ptr(0.5), Max: ahpwire.Ptr(100.0), DefaultValue: raw(8)},
			{Kind: ahpwire.QuestionBoolean, ID: "tests", Title: "Tests first", Message: "Should I write the tests first?",
				Required: yes, DefaultValue: raw(true)},
			{Kind: ahpwire.QuestionSingleSelect, ID: "language", Title: "Language", Message: "Which language should I use?",
				Required: yes, AllowFreeformInput: yes, Options: []ahpwire.ChatInputOption{
					{ID: "go", Label: "Go", Description: "fast builds, one static binary", Recommended: yes},
					{ID: "python", Label: "Python", Description: "quickest to prototype"},
					{ID: "rust", Label: "Rust", Description: "memory safety without a GC"},
					{ID: "typescript", Label: "TypeScript", Description: "runs in Node and the browser"},
				}},
			{Kind: ahpwire.QuestionMultiSelect, ID: "features", Title: "Features", Message: "Which parts should I set up?",
				Min: ahpwire.Ptr(1.0), Options: []ahpwire.ChatInputOption{
					{ID: "cli", Label: "Command-line interface"},
					{ID: "api", Label: "HTTP API"},
					{ID: "docs", Label: "Documentation site"},
					{ID: "ci", Label: "CI workflow"},
				}},
		},
	}
}

// input runs "/demo input": ask, wait for chat/inputCompleted, echo.
func (r *run) input() error {
	if err := r.streamMarkdown("I'll set up a new project for you. First, a few questions.\n\n"); err != nil {
		return err
	}
	req := inputRequest(r.t.TurnID)
	if err := r.emit(&ahpwire.ChatInputRequested{Request: req}); err != nil {
		return err
	}
	a, err := r.await(func(a ahpwire.Action) bool {
		c, ok := a.(*ahpwire.ChatInputCompleted)
		return ok && c.RequestID == req.ID
	})
	if err != nil {
		return err
	}
	done := a.(*ahpwire.ChatInputCompleted)
	switch done.Response {
	case ahpwire.InputAccept:
		answers := map[string]ahpwire.ChatInputAnswer{}
		for k, v := range r.drafts[req.ID] {
			answers[k] = v
		}
		for k, v := range done.Answers {
			answers[k] = v
		}
		return r.answerOnly(echoAnswers(req, answers))
	case ahpwire.InputDecline:
		return r.answerOnly("You declined to answer — no problem. I'll wait until you want to set the project up; " +
			"just run `/demo input` again.\n")
	}
	return r.answerOnly("The questions were cancelled, so I stopped here. Nothing was set up.\n")
}

// echoAnswers renders the answers as a table plus a one-line plan.
func echoAnswers(req ahpwire.ChatInputRequest, answers map[string]ahpwire.ChatInputAnswer) string {
	var b strings.Builder
	b.WriteString("Thanks! Here is what you told me:\n\n| Question | Answer |\n|---|---|\n")
	for _, q := range req.Questions {
		fmt.Fprintf(&b, "| %s | %s |\n", mdCell(q.Title), mdCell(answerText(q, answers[q.ID])))
	}
	name := "the project"
	if a, ok := answers["name"]; ok && a.Value != nil && a.State != ahpwire.AnswerSkipped {
		name = inlineCode(shortPrompt(a.Value.String(), 40))
	}
	fmt.Fprintf(&b, "\nI'd scaffold %s with those settings next (this demo stops here).\n", name)
	return b.String()
}

// answerText renders one answer for the table.
func answerText(q ahpwire.ChatInputQuestion, a ahpwire.ChatInputAnswer) string {
	if a.State == "" {
		return "_no answer_"
	}
	if a.State == ahpwire.AnswerSkipped || a.Value == nil {
		if len(a.FreeformValues) > 0 {
			return "_skipped_ (" + strings.Join(a.FreeformValues, ", ") + ")"
		}
		return "_skipped_"
	}
	v := a.Value
	var s string
	switch v.Kind {
	case ahpwire.AnswerValueBoolean:
		var x bool
		if json.Unmarshal(v.Value, &x) == nil {
			s = map[bool]string{true: "yes", false: "no"}[x]
		}
	case ahpwire.AnswerValueNumber:
		var x float64
		if json.Unmarshal(v.Value, &x) == nil {
			s = strconv.FormatFloat(x, 'f', -1, 64)
		}
	case ahpwire.AnswerValueSelected:
		var id string
		if json.Unmarshal(v.Value, &id) == nil {
			s = optionLabel(q, id)
		}
	case ahpwire.AnswerValueSelectedMany:
		var ids []string
		if json.Unmarshal(v.Value, &ids) == nil {
			labels := make([]string, len(ids))
			for i, id := range ids {
				labels[i] = optionLabel(q, id)
			}
			s = strings.Join(labels, ", ")
		}
	}
	if s == "" {
		s = v.String()
	}
	free := append(append([]string(nil), v.FreeformValues...), a.FreeformValues...)
	if len(free) > 0 {
		if s != "" {
			s += ", "
		}
		s += strings.Join(free, ", ")
	}
	if s == "" {
		s = "_empty_"
	}
	if a.State == ahpwire.AnswerDraft {
		s += " (draft)"
	}
	return shortPrompt(s, 120)
}

// optionLabel returns the label of option id, or id itself.
func optionLabel(q ahpwire.ChatInputQuestion, id string) string {
	for _, o := range q.Options {
		if o.ID == id {
			return o.Label
		}
	}
	return id
}
