package ahpwire

import (
	"encoding/json"
	"fmt"
)

// Input question kinds (ChatInputQuestionKind).
const (
	QuestionText         = "text"
	QuestionNumber       = "number"
	QuestionInteger      = "integer"
	QuestionBoolean      = "boolean"
	QuestionSingleSelect = "single-select"
	QuestionMultiSelect  = "multi-select"
)

// Input responses (ChatInputResponseKind).
const (
	InputAccept  = "accept"
	InputDecline = "decline"
	InputCancel  = "cancel"
)

// Answer states (ChatInputAnswerState).
const (
	AnswerDraft     = "draft"
	AnswerSubmitted = "submitted"
	AnswerSkipped   = "skipped"
)

// Answer value kinds (ChatInputAnswerValueKind).
const (
	AnswerValueText         = "text"
	AnswerValueNumber       = "number"
	AnswerValueBoolean      = "boolean"
	AnswerValueSelected     = "selected"
	AnswerValueSelectedMany = "selected-many"
)

// ChatInputOption is a choice of a select question.
type ChatInputOption struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	Recommended *bool  `json:"recommended,omitempty"`
}

// ChatInputQuestion is one question: a flat union discriminated by Kind.
// DefaultValue is kept raw (string, number or boolean by kind).
type ChatInputQuestion struct {
	Kind               string            `json:"kind"`
	ID                 string            `json:"id"`
	Title              string            `json:"title,omitempty"`
	Message            string            `json:"message"`
	Required           *bool             `json:"required,omitempty"`
	Format             string            `json:"format,omitempty"`
	Min                *float64          `json:"min,omitempty"`
	Max                *float64          `json:"max,omitempty"`
	DefaultValue       json.RawMessage   `json:"defaultValue,omitempty"`
	Options            []ChatInputOption `json:"options,omitempty"`
	AllowFreeformInput *bool             `json:"allowFreeformInput,omitempty"`
}

// IsRequired reports whether the question must be answered to accept.
func (q *ChatInputQuestion) IsRequired() bool { return q.Required != nil && *q.Required }

// ChatInputAnswerValue is an answer value; Value is kept raw (a string,
// number, boolean or string list by Kind). Use the helpers to build one.
type ChatInputAnswerValue struct {
	Kind           string          `json:"kind"`
	Value          json.RawMessage `json:"value"`
	FreeformValues []string        `json:"freeformValues,omitempty"`
}

// TextAnswer builds a text answer value.
func TextAnswer(s string) ChatInputAnswerValue {
	b, _ := json.Marshal(s)
	return ChatInputAnswerValue{Kind: AnswerValueText, Value: b}
}

// NumberAnswer builds a number answer value.
func NumberAnswer(f float64) ChatInputAnswerValue {
	b, _ := json.Marshal(f)
	return ChatInputAnswerValue{Kind: AnswerValueNumber, Value: b}
}

// BoolAnswer builds a boolean answer value.
func BoolAnswer(v bool) ChatInputAnswerValue {
	b, _ := json.Marshal(v)
	return ChatInputAnswerValue{Kind: AnswerValueBoolean, Value: b}
}

// SelectedAnswer builds a single-select answer value.
func SelectedAnswer(id string) ChatInputAnswerValue {
	b, _ := json.Marshal(id)
	return ChatInputAnswerValue{Kind: AnswerValueSelected, Value: b}
}

// SelectedManyAnswer builds a multi-select answer value.
func SelectedManyAnswer(ids []string) ChatInputAnswerValue {
	if ids == nil {
		ids = []string{}
	}
	b, _ := json.Marshal(ids)
	return ChatInputAnswerValue{Kind: AnswerValueSelectedMany, Value: b}
}

// String returns a display form of the value.
func (v ChatInputAnswerValue) String() string {
	var s string
	if json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	var l []string
	if json.Unmarshal(v.Value, &l) == nil {
		out := ""
		for i, x := range l {
			if i > 0 {
				out += ", "
			}
			out += x
		}
		return out
	}
	return string(v.Value)
}

// ChatInputAnswer is a draft, submitted or skipped answer.
type ChatInputAnswer struct {
	State          string                `json:"state"`
	Value          *ChatInputAnswerValue `json:"value,omitempty"`
	FreeformValues []string              `json:"freeformValues,omitempty"`
}

// ChatInputRequest is an elicitation with optional questions and answers.
type ChatInputRequest struct {
	ID        string                     `json:"id"`
	Message   string                     `json:"message,omitempty"`
	URL       string                     `json:"url,omitempty"`
	Questions []ChatInputQuestion        `json:"questions,omitempty"`
	Answers   map[string]ChatInputAnswer `json:"answers,omitempty"`
}

// MissingRequired returns the ids of required questions without a
// submitted answer in answers (the condition for rejecting an accept).
func (r *ChatInputRequest) MissingRequired(answers map[string]ChatInputAnswer) []string {
	var missing []string
	for _, q := range r.Questions {
		if !q.IsRequired() {
			continue
		}
		if a, ok := answers[q.ID]; !ok || a.State != AnswerSubmitted {
			missing = append(missing, q.ID)
		}
	}
	return missing
}

// Validate reports a structural problem with an answer.
func (a *ChatInputAnswer) Validate() error {
	switch a.State {
	case AnswerDraft, AnswerSubmitted:
		if a.Value == nil {
			return fmt.Errorf("answer in state %q has no value", a.State)
		}
	case AnswerSkipped:
	default:
		return fmt.Errorf("unknown answer state %q", a.State)
	}
	return nil
}

// Text returns the value of a text answer ("" for other kinds or an
// undecodable value).
func (v ChatInputAnswerValue) Text() string {
	var s string
	if v.Kind == AnswerValueText && json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	return ""
}

// Number returns the value of a number answer (0 otherwise).
func (v ChatInputAnswerValue) Number() float64 {
	var f float64
	if v.Kind == AnswerValueNumber && json.Unmarshal(v.Value, &f) == nil {
		return f
	}
	return 0
}

// Bool returns the value of a boolean answer (false otherwise).
func (v ChatInputAnswerValue) Bool() bool {
	var b bool
	if v.Kind == AnswerValueBoolean && json.Unmarshal(v.Value, &b) == nil {
		return b
	}
	return false
}

// Selected returns the option ids of a selected or selected-many answer
// (nil for other kinds or an undecodable value).
func (v ChatInputAnswerValue) Selected() []string {
	switch v.Kind {
	case AnswerValueSelected:
		var s string
		if json.Unmarshal(v.Value, &s) == nil {
			return []string{s}
		}
	case AnswerValueSelectedMany:
		var l []string
		if json.Unmarshal(v.Value, &l) == nil {
			return l
		}
	}
	return nil
}

// Freeform returns the typed values of an answer: the value's own, else
// the answer's.
func (a *ChatInputAnswer) Freeform() []string {
	if a.Value != nil && len(a.Value.FreeformValues) > 0 {
		return a.Value.FreeformValues
	}
	return a.FreeformValues
}

// DefaultAnswer returns the question's default as an answer value (kind by
// question kind), nil when it has none.
func (q *ChatInputQuestion) DefaultAnswer() *ChatInputAnswerValue {
	if len(q.DefaultValue) == 0 {
		return nil
	}
	kind := q.Kind
	switch kind {
	case QuestionInteger:
		kind = AnswerValueNumber
	case QuestionSingleSelect:
		kind = AnswerValueSelected
	case QuestionMultiSelect:
		kind = AnswerValueSelectedMany
	}
	return &ChatInputAnswerValue{Kind: kind, Value: q.DefaultValue}
}
