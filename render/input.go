package render

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// inputRequest renders a question for the user with its questions, options
// and the answers so far.
func (r *Renderer) inputRequest(b *reducer.Block, width int) []string {
	req := b.Input
	if req == nil {
		return nil
	}
	st := r.styles.Input
	var head string
	switch b.Response {
	case "":
		head = "? Input requested"
	case ahpwire.InputAccept:
		head = "✓ Input answered"
	case ahpwire.InputDecline:
		head = "⊘ Input declined"
	case ahpwire.InputCancel:
		head = "⊘ Input cancelled"
	default:
		head = "Input: " + oneLine(b.Response)
	}
	out := []string{gutter + st.Label.Render(truncatePlain(head, width-len(gutter)))}
	if strings.TrimSpace(req.Message) != "" {
		out = append(out, textBlock(req.Message, width, r.styles.Tool.Body, detailIndent)...)
	}
	if req.URL != "" {
		out = append(out, hangBlock("→ ", displayURI(req.URL), width, r.styles.Tool.Link, detailIndent)...)
	}
	for i, q := range req.Questions {
		out = append(out, r.question(i, q, req, width)...)
	}
	return out
}

// question renders one question, its options and its answer.
func (r *Renderer) question(i int, q ahpwire.ChatInputQuestion, req *ahpwire.ChatInputRequest, width int) []string {
	st := r.styles.Input
	title := q.Title
	if title == "" {
		title = q.Message
	}
	head := oneLine(title)
	if q.IsRequired() {
		head += " (required)"
	}
	out := hangBlock(strconv.Itoa(i+1)+". ", head, width, st.Question, detailIndent)
	sub := detailIndent + "   "
	if q.Title != "" && q.Message != "" {
		out = append(out, textBlock(q.Message, width, r.styles.Tool.Body, sub)...)
	}
	ans, has := req.Answers[q.ID]
	chosen := map[string]bool{}
	if has && ans.Value != nil {
		for _, id := range ans.Value.Selected() {
			chosen[id] = true
		}
	}
	for _, o := range q.Options {
		mark := "○ "
		if chosen[o.ID] {
			mark = "● "
		}
		s := oneLine(o.Label)
		if d := oneLine(o.Description); d != "" {
			s += " — " + d
		}
		if o.Recommended != nil && *o.Recommended {
			s += " (recommended)"
		}
		out = append(out, hangBlock(mark, s, width, r.styles.Muted, sub)...)
	}
	switch {
	case !has:
		out = append(out, textBlock("no answer", width, st.Missing, sub)...)
	case ans.State == ahpwire.AnswerSkipped:
		out = append(out, textBlock("skipped", width, st.Missing, sub)...)
	default:
		s := answerText(ans, q)
		if ans.State == ahpwire.AnswerDraft {
			s += " (draft)"
		}
		out = append(out, hangBlock("→ ", s, width, st.Answer, sub)...)
	}
	return out
}

// answerText formats an answer's value, using option labels for
// selections.
func answerText(a ahpwire.ChatInputAnswer, q ahpwire.ChatInputQuestion) string {
	label := func(id string) string {
		for _, o := range q.Options {
			if o.ID == id {
				return o.Label
			}
		}
		return id
	}
	var parts []string
	if v := a.Value; v != nil {
		switch v.Kind {
		case ahpwire.AnswerValueText:
			parts = append(parts, v.Text())
		case ahpwire.AnswerValueNumber:
			parts = append(parts, strconv.FormatFloat(v.Number(), 'g', -1, 64))
		case ahpwire.AnswerValueBoolean:
			parts = append(parts, map[bool]string{true: "yes", false: "no"}[v.Bool()])
		case ahpwire.AnswerValueSelected, ahpwire.AnswerValueSelectedMany:
			for _, id := range v.Selected() {
				parts = append(parts, label(id))
			}
		}
	}
	parts = append(parts, a.Freeform()...)
	return strings.Join(parts, ", ")
}
