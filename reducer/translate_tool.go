package reducer

import "github.com/ahptui/ahptui/ahpwire"

// translateTool maps the chat/toolCall* actions; nil for anything else.
// Which transitions apply is decided by Reduce from the tool call's state.
func translateTool(a ahpwire.Action) []Action {
	switch a := a.(type) {
	case *ahpwire.ChatToolCallStart:
		return []Action{ToolCallStart{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, ToolName: a.ToolName,
			DisplayName: a.DisplayName, Intention: a.Intention,
			Contributor: contributor(a.Contributor), Meta: copyMeta(a.Meta),
		}}
	case *ahpwire.ChatToolCallDelta:
		return []Action{ToolCallDelta{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Content: a.Content,
			InvocationMessage: richPtr(a.InvocationMessage), Meta: copyMeta(a.Meta),
		}}
	case *ahpwire.ChatToolCallReady:
		r := ToolCallReady{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID,
			InvocationMessage: rich(a.InvocationMessage), Input: toolInput(a.ToolInput),
			ConfirmationTitle: richPtr(a.ConfirmationTitle), Risk: risk(a.RiskAssessment),
			Edits: edits(a.Edits), Editable: boolPtr(a.Editable), Confirmed: a.Confirmed,
			Options: options(a.Options), Meta: copyMeta(a.Meta),
			Intention: a.Intention, Contributor: contributor(a.Contributor),
		}
		if a.Edits != nil && r.Edits == nil {
			r.Edits = []FileEdit{}
		}
		return []Action{r}
	case *ahpwire.ChatToolCallConfirmed:
		c := ToolCallConfirmed{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Approved: a.Approved,
			Confirmed: a.Confirmed, SelectedOptionID: a.SelectedOptionID,
			Reason: a.Reason, ReasonMessage: richPtr(a.ReasonMessage), Meta: copyMeta(a.Meta),
		}
		if a.EditedToolInput != nil {
			c.EditedInput = &ToolInput{Text: *a.EditedToolInput}
		}
		if a.UserSuggestion != nil {
			c.UserSuggestion = a.UserSuggestion.Text
		}
		return []Action{c}
	case *ahpwire.ChatToolCallComplete:
		return []Action{ToolResult{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Result: outcome(a.Result),
			Content: toolContents(a.Result.Content), RequiresResultConfirmation: a.RequiresResultConfirmation,
			Meta: copyMeta(a.Meta),
		}}
	case *ahpwire.ChatToolCallResultConfirmed:
		return []Action{ToolCallResultConfirmed{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Approved: a.Approved, Meta: copyMeta(a.Meta),
		}}
	case *ahpwire.ChatToolCallContentChanged:
		c := toolContents(a.Content)
		if c == nil {
			c = []ToolContent{}
		}
		return []Action{ToolCallContentChanged{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Content: c, Meta: copyMeta(a.Meta),
		}}
	case *ahpwire.ChatToolCallAuthRequired:
		return []Action{ToolCallAuthRequired{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Auth: auth(a.Auth), Meta: copyMeta(a.Meta),
		}}
	case *ahpwire.ChatToolCallAuthResolved:
		return []Action{ToolCallAuthResolved{
			MessageID: a.TurnID, ToolCallID: a.ToolCallID, Meta: copyMeta(a.Meta),
		}}
	}
	return nil
}
