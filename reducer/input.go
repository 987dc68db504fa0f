package reducer

import "github.com/ahptui/ahptui/ahpwire"

// Input request responses (InputRequest.Response): the wire values.
const (
	InputAccept  = ahpwire.InputAccept
	InputDecline = ahpwire.InputDecline
	InputCancel  = ahpwire.InputCancel
)

// Answer states (InputAnswer.State): the wire values.
const (
	AnswerDraft     = ahpwire.AnswerDraft
	AnswerSubmitted = ahpwire.AnswerSubmitted
	AnswerSkipped   = ahpwire.AnswerSkipped
)

// Answer value kinds (InputAnswer.Kind): the wire values.
const (
	AnswerText         = ahpwire.AnswerValueText
	AnswerNumber       = ahpwire.AnswerValueNumber
	AnswerBoolean      = ahpwire.AnswerValueBoolean
	AnswerSelected     = ahpwire.AnswerValueSelected
	AnswerSelectedMany = ahpwire.AnswerValueSelectedMany
)

// InputRequest is the payload of a KindInputRequest block: an elicitation
// with optional questions, the answers so far and, once completed, the
// response. It is immutable once in a State; Answers is replaced, never
// modified.
type InputRequest struct {
	// ID is the request id (also Block.ID).
	ID string
	// Message explains the request; URL asks the user to visit a page.
	Message string
	URL     string
	// Questions in display order.
	Questions []InputQuestion
	// Answers by question id (drafts or submitted); nil if none.
	Answers map[string]InputAnswer
	// Response is "" while open, else "accept", "decline" or "cancel".
	Response string
}

// Open reports whether the request still waits for an answer.
func (r *InputRequest) Open() bool { return r.Response == "" }

// InputQuestion is one question; fields beyond ID/Kind/Message depend on
// Kind ("text", "number", "integer", "boolean", "single-select",
// "multi-select").
type InputQuestion struct {
	ID       string
	Kind     string
	Title    string
	Message  string
	Required bool
	// Format is a text format hint.
	Format string
	// Min / Max bound numbers, text length or selection count.
	Min *float64
	Max *float64
	// Default is the default answer, nil if none.
	Default *InputAnswer
	// Options for select questions, in order.
	Options []InputOption
	// AllowFreeform allows typed answers in select questions.
	AllowFreeform bool
}

// InputOption is a choice of a select question.
type InputOption struct {
	ID          string
	Label       string
	Description string
	Recommended bool
}

// InputAnswer is an answer (draft, submitted or skipped). Kind selects which
// value field is meaningful.
type InputAnswer struct {
	// State is "draft", "submitted" or "skipped".
	State string
	// Kind is the value kind ("" when skipped).
	Kind     string
	Text     string
	Number   float64
	Bool     bool
	Selected []string
	// Freeform holds typed values for select questions.
	Freeform []string
}
