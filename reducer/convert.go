package reducer

import (
	"encoding/json"
	"github.com/ahptui/ahptui/internal/textbuf"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// This file converts AHP wire payloads into the render model's payloads.
// Every converter copies: nothing of the wire value is shared with a State.

func rich(s ahpwire.StringOrMarkdown) Rich { return Rich{Text: s.Text, Markdown: s.Markdown} }

func richPtr(s *ahpwire.StringOrMarkdown) *Rich {
	if s == nil {
		return nil
	}
	r := rich(*s)
	return &r
}

func copyMeta(m ahpwire.Meta) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out
}

func contentRef(r ahpwire.ContentRef) *ContentRef {
	c := &ContentRef{URI: r.URI, ContentType: r.ContentType, SizeHint: -1}
	if r.SizeHint != nil {
		c.SizeHint = *r.SizeHint
	}
	return c
}

func toolInput(t *ahpwire.ToolInput) *ToolInput {
	if t == nil {
		return nil
	}
	in := &ToolInput{Text: t.Text}
	if t.Ref != nil {
		in.Ref = contentRef(*t.Ref)
	}
	return in
}

func contributor(c *ahpwire.ToolCallContributor) *Contributor {
	if c == nil {
		return nil
	}
	return &Contributor{Kind: c.Kind, ClientID: c.ClientID, CustomizationID: c.CustomizationID}
}

func risk(r *ahpwire.ToolCallRiskAssessment) *Risk {
	if r == nil {
		return nil
	}
	out := &Risk{Kind: r.Kind, Status: r.Status, Reason: richPtr(r.Reason)}
	if r.Safety != nil {
		v := *r.Safety
		out.Safety = &v
	}
	return out
}

func options(os []ahpwire.ConfirmationOption) []ConfirmOption {
	if os == nil {
		return nil
	}
	out := make([]ConfirmOption, len(os))
	for i, o := range os {
		out[i] = option(o)
	}
	return out
}

func option(o ahpwire.ConfirmationOption) ConfirmOption {
	c := ConfirmOption{ID: o.ID, Label: o.Label, Kind: o.Kind}
	if o.Group != nil {
		g := *o.Group
		c.Group = &g
	}
	return c
}

func fileEdit(e ahpwire.FileEdit) FileEdit {
	return fileEditOf(e.Before, e.After, e.Diff)
}

func fileEditOf(before, after *ahpwire.FileEditSide, diff *ahpwire.FileEditDiffStats) FileEdit {
	out := FileEdit{Added: -1, Removed: -1}
	if before != nil {
		out.BeforeURI, out.BeforeContent = before.URI, contentRef(before.Content)
	}
	if after != nil {
		out.AfterURI, out.AfterContent = after.URI, contentRef(after.Content)
	}
	if diff != nil {
		if diff.Added != nil {
			out.Added = *diff.Added
		}
		if diff.Removed != nil {
			out.Removed = *diff.Removed
		}
	}
	return out
}

func edits(c *ahpwire.FileEditCollection) []FileEdit {
	if c == nil {
		return nil
	}
	out := make([]FileEdit, len(c.Items))
	for i, e := range c.Items {
		out[i] = fileEdit(e)
	}
	return out
}

func boolPtr(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

func auth(a ahpwire.McpAuthRequirement) AuthRequirement {
	return AuthRequirement{
		Reason: a.Reason, Resource: a.Resource.Resource,
		Scopes: append([]string(nil), a.RequiredScopes...), Description: a.Description,
	}
}

func toolContents(cs []ahpwire.ToolResultContent) []ToolContent {
	if cs == nil {
		return nil
	}
	out := make([]ToolContent, len(cs))
	for i, c := range cs {
		out[i] = toolContent(c)
	}
	return out
}

func toolContent(c ahpwire.ToolResultContent) ToolContent {
	out := ToolContent{Type: c.Type, SizeHint: -1}
	switch c.Type {
	case ContentText:
		out.Text = c.Text
	case ContentEmbeddedResource:
		out.Data, out.ContentType = c.Data, c.ContentType
	case ContentResource:
		out.URI, out.ContentType = c.URI, c.ContentType
		if c.SizeHint != nil {
			out.SizeHint = *c.SizeHint
		}
	case ContentFileEdit:
		e := fileEditOf(c.Before, c.After, c.Diff)
		out.Edit = &e
	case ContentTerminal:
		t := &TerminalOutput{Resource: c.Resource, Title: c.Title}
		if c.IsPty != nil {
			t.IsPty = *c.IsPty
		}
		if c.Result != nil {
			t.Output = c.Result.Preview
			if c.Result.Truncated != nil {
				t.Truncated = *c.Result.Truncated
			}
			if c.Result.ExitCode != nil {
				x := *c.Result.ExitCode
				t.ExitCode = &x
			}
		}
		out.Terminal = t
	case ContentSubagent:
		out.Subagent = &SubagentLink{Resource: c.Resource, Title: c.Title, AgentName: c.AgentName, Description: c.Description}
	default:
		out.Raw = append(json.RawMessage(nil), c.Raw...)
	}
	return out
}

func outcome(r ahpwire.ToolCallResult) ToolOutcome {
	o := ToolOutcome{Success: r.Success, PastTenseMessage: rich(r.PastTenseMessage)}
	if len(r.StructuredContent) > 0 {
		o.Structured = append(json.RawMessage(nil), r.StructuredContent...)
	}
	if r.Error != nil {
		o.ErrorMessage, o.ErrorCode = r.Error.Message, r.Error.Code
	}
	return o
}

// toolCall converts a whole tool-call state (snapshots, responsePart).
func toolCall(t ahpwire.ToolCallState) *ToolCall {
	tc := &ToolCall{
		ID: t.ToolCallID, Status: ToolStatus(t.Status), ToolName: t.ToolName,
		DisplayName: t.DisplayName, Intention: t.Intention,
		Contributor:       contributor(t.Contributor),
		Meta:              copyMeta(t.Meta),
		InvocationMessage: richPtr(t.InvocationMessage),
		Input:             toolInput(t.ToolInput),
		ConfirmationTitle: richPtr(t.ConfirmationTitle),
		Risk:              risk(t.RiskAssessment),
		Edits:             edits(t.Edits),
		Editable:          boolPtr(t.Editable),
		Options:           options(t.Options),
		Confirmed:         t.Confirmed,
		Content:           toolContents(t.Content),
		CancelReason:      t.Reason,
		ReasonMessage:     richPtr(t.ReasonMessage),
	}
	if t.PartialInput != nil {
		tc.partial = textbuf.New(*t.PartialInput)
	}
	if t.SelectedOption != nil {
		o := option(*t.SelectedOption)
		tc.SelectedOption = &o
	}
	if t.Auth != nil {
		a := auth(*t.Auth)
		tc.Auth = &a
	}
	if t.UserSuggestion != nil {
		tc.UserSuggestion = t.UserSuggestion.Text
	}
	if t.Success != nil || t.PastTenseMessage != nil {
		o := outcome(t.Result())
		tc.Result = &o
	}
	return tc
}

func answer(a ahpwire.ChatInputAnswer) InputAnswer {
	out := InputAnswer{State: a.State, Freeform: append([]string(nil), a.FreeformValues...)}
	if a.Value != nil {
		v := answerValue(a.Value.Kind, a.Value.Value)
		v.State = a.State
		if len(a.Value.FreeformValues) > 0 {
			v.Freeform = append([]string(nil), a.Value.FreeformValues...)
		} else {
			v.Freeform = out.Freeform
		}
		return v
	}
	return out
}

// answerValue decodes a raw answer value by kind; an undecodable value
// keeps only the kind.
func answerValue(kind string, raw json.RawMessage) InputAnswer {
	out := InputAnswer{Kind: kind}
	switch kind {
	case AnswerText, AnswerSelected:
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if kind == AnswerText {
				out.Text = s
			} else {
				out.Selected = []string{s}
			}
		}
	case AnswerNumber:
		_ = json.Unmarshal(raw, &out.Number)
	case AnswerBoolean:
		_ = json.Unmarshal(raw, &out.Bool)
	case AnswerSelectedMany:
		var l []string
		if json.Unmarshal(raw, &l) == nil {
			out.Selected = l
		}
	}
	return out
}

func answers(m map[string]ahpwire.ChatInputAnswer) map[string]InputAnswer {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]InputAnswer, len(m))
	for k, v := range m {
		out[k] = answer(v)
	}
	return out
}

func question(q ahpwire.ChatInputQuestion) InputQuestion {
	out := InputQuestion{
		ID: q.ID, Kind: q.Kind, Title: q.Title, Message: q.Message,
		Required: q.IsRequired(), Format: q.Format,
	}
	if q.Min != nil {
		v := *q.Min
		out.Min = &v
	}
	if q.Max != nil {
		v := *q.Max
		out.Max = &v
	}
	if len(q.DefaultValue) > 0 {
		k := q.Kind
		switch k {
		case "integer":
			k = AnswerNumber
		case "single-select":
			k = AnswerSelected
		case "multi-select":
			k = AnswerSelectedMany
		}
		d := answerValue(k, q.DefaultValue)
		out.Default = &d
	}
	if q.AllowFreeformInput != nil {
		out.AllowFreeform = *q.AllowFreeformInput
	}
	for _, o := range q.Options {
		io := InputOption{ID: o.ID, Label: o.Label, Description: o.Description}
		if o.Recommended != nil {
			io.Recommended = *o.Recommended
		}
		out.Options = append(out.Options, io)
	}
	return out
}

func inputRequest(r ahpwire.ChatInputRequest, response string) InputRequest {
	out := InputRequest{ID: r.ID, Message: r.Message, URL: r.URL, Answers: answers(r.Answers), Response: response}
	for _, q := range r.Questions {
		out.Questions = append(out.Questions, question(q))
	}
	return out
}

func errorInfo(e ahpwire.ErrorInfo, resumable bool) ErrorInfo {
	return ErrorInfo{ErrorType: e.ErrorType, Message: e.Message, Stack: e.Stack, Resumable: resumable}
}

func usage(u ahpwire.UsageInfo) Usage {
	out := Usage{Model: u.Model}
	if u.InputTokens != nil {
		out.InputTokens = *u.InputTokens
	}
	if u.OutputTokens != nil {
		out.OutputTokens = *u.OutputTokens
	}
	if u.CacheReadTokens != nil {
		out.CacheReadTokens = *u.CacheReadTokens
	}
	return out
}

func attachments(as []ahpwire.MessageAttachment) []Attachment {
	var out []Attachment
	for _, a := range as {
		uri := a.URI
		if uri == "" {
			uri = a.Resource
		}
		out = append(out, Attachment{Type: a.Type, Label: a.Label, URI: uri})
	}
	return out
}

// timestamp parses an ISO-8601 timestamp (or epoch milliseconds); zero if
// absent or unparsable.
func timestamp(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC()
	}
	var ms int64
	if json.Unmarshal([]byte(s), &ms) == nil && !strings.ContainsAny(s, ".eE") {
		return time.UnixMilli(ms).UTC()
	}
	return time.Time{}
}

func duration(ms *int64) time.Duration {
	if ms == nil || *ms < 0 {
		return 0
	}
	const maxMS = int64(1<<63-1) / int64(time.Millisecond)
	if *ms > maxMS {
		return time.Duration(maxMS) * time.Millisecond
	}
	return time.Duration(*ms) * time.Millisecond
}

// partID returns the string "id" member of an unknown part's JSON.
func partID(raw json.RawMessage) string {
	var v struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	s, _ := v.ID.(string)
	return s
}
