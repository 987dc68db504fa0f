package render

import (
	"strconv"
	"strings"

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
	switch req.Response {
	case "":
		head = "? Input requested"
	case reducer.InputAccept:
		head = "✓ Input answered"
	case reducer.InputDecline:
		head = "⊘ Input declined"
	case reducer.InputCancel:
		head = "⊘ Input cancelled"
	default:
		head = "Input: " + oneLine(req.Response)
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
func (r *Renderer) question(i int, q reducer.InputQuestion, req *reducer.InputRequest, width int) []string {
	st := r.styles.Input
	title := q.Title
	if title == "" {
		title = q.Message
	}
	head := oneLine(title)
	if q.Required {
		head += " (required)"
	}
	out := hangBlock(strconv.Itoa(i+1)+". ", head, width, st.Question, detailIndent)
	sub := detailIndent + "   "
	if q.Title != "" && q.Message != "" {
		out = append(out, textBlock(q.Message, width, r.styles.Tool.Body, sub)...)
	}
	ans, has := req.Answers[q.ID]
	chosen := map[string]bool{}
	if has {
		for _, id := range ans.Selected {
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
		if o.Recommended {
			s += " (recommended)"
		}
		out = append(out, hangBlock(mark, s, width, r.styles.Muted, sub)...)
	}
	switch {
	case !has:
		out = append(out, textBlock("no answer", width, st.Missing, sub)...)
	case ans.State == reducer.AnswerSkipped:
		out = append(out, textBlock("skipped", width, st.Missing, sub)...)
	default:
		s := answerText(ans, q)
		if ans.State == reducer.AnswerDraft {
			s += " (draft)"
		}
		out = append(out, hangBlock("→ ", s, width, st.Answer, sub)...)
	}
	return out
}

// answerText formats an answer's value, using option labels for
// selections.
func answerText(a reducer.InputAnswer, q reducer.InputQuestion) string {
	label := func(id string) string {
		for _, o := range q.Options {
			if o.ID == id {
				return o.Label
			}
		}
		return id
	}
	var parts []string
	switch a.Kind {
	case reducer.AnswerText:
		parts = append(parts, a.Text)
	case reducer.AnswerNumber:
		parts = append(parts, strconv.FormatFloat(a.Number, 'g', -1, 64))
	case reducer.AnswerBoolean:
		parts = append(parts, map[bool]string{true: "yes", false: "no"}[a.Bool])
	case reducer.AnswerSelected, reducer.AnswerSelectedMany:
		for _, id := range a.Selected {
			parts = append(parts, label(id))
		}
	}
	parts = append(parts, a.Freeform...)
	return strings.Join(parts, ", ")
}
