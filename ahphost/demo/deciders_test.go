package demo

import "github.com/ahptui/ahptui/ahpwire"

// policy is how a fake user answers every confirmation of a turn.
type policy struct {
	edit, command, result bool   // approve?
	reason                string // denial reason ("" → "denied")
	optionIDs             bool   // send selectedOptionId for option-based confirmations
}

// approveAll approves every confirmation and every result.
var approveAll = policy{edit: true, command: true, result: true}.decider()

// decider turns the policy into a decider.
func (p policy) decider() decider {
	return func(a ahpwire.Action) []ahpwire.Action {
		switch v := a.(type) {
		case *ahpwire.ChatToolCallReady:
			if v.Confirmed != "" {
				return nil
			}
			ok := p.command
			if v.ToolCallID == v.TurnID+".tc-"+ToolEditFile {
				ok = p.edit
			}
			c := &ahpwire.ChatToolCallConfirmed{TurnID: v.TurnID, ToolCallID: v.ToolCallID, Approved: ok}
			if ok {
				c.Confirmed = ahpwire.ConfirmedUserAction
			} else {
				c.Reason = ahpwire.CancelDenied
				if p.reason != "" {
					c.Reason = p.reason
				}
				c.ReasonMessage = ahpwire.PlainPtr("not now")
			}
			if p.optionIDs && len(v.Options) > 0 {
				for _, o := range v.Options {
					if (o.Kind == "approve") == ok {
						c.SelectedOptionID = o.ID
						break
					}
				}
			}
			return []ahpwire.Action{c}
		case *ahpwire.ChatToolCallComplete:
			if v.RequiresResultConfirmation {
				return []ahpwire.Action{&ahpwire.ChatToolCallResultConfirmed{TurnID: v.TurnID, ToolCallID: v.ToolCallID, Approved: p.result}}
			}
		}
		return nil
	}
}

// answerInput answers an input request: drafts first (inputAnswerChanged),
// then inputCompleted with response and the given final answers.
func answerInput(response string, drafts, final map[string]ahpwire.ChatInputAnswer) decider {
	return func(a ahpwire.Action) []ahpwire.Action {
		req, ok := a.(*ahpwire.ChatInputRequested)
		if !ok {
			return nil
		}
		var out []ahpwire.Action
		for _, q := range req.Request.Questions { // question order keeps it deterministic
			if d, ok := drafts[q.ID]; ok {
				out = append(out, &ahpwire.ChatInputAnswerChanged{RequestID: req.Request.ID, QuestionID: q.ID, Answer: &d})
			}
		}
		out = append(out, &ahpwire.ChatInputAnswerChanged{RequestID: "other", QuestionID: "name",
			Answer: &ahpwire.ChatInputAnswer{State: ahpwire.AnswerDraft, Value: ptr(ahpwire.TextAnswer("ignored"))}})
		return append(out, &ahpwire.ChatInputCompleted{RequestID: req.Request.ID, Response: response, Answers: final})
	}
}

func ptr[T any](v T) *T { return &v }

func submitted(v ahpwire.ChatInputAnswerValue) ahpwire.ChatInputAnswer {
	return ahpwire.ChatInputAnswer{State: ahpwire.AnswerSubmitted, Value: &v}
}
