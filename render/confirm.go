package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// confirmation renders what the user needs to approve or deny a tool call:
// title, invocation, risk assessment, proposed edits, input and options.
func (r *Renderer) confirmation(tc *ahpwire.ToolCallState, width int, v ViewOpts) []string {
	st := r.styles.Confirm
	var title ahpwire.StringOrMarkdown
	if tc.ConfirmationTitle != nil {
		title = *tc.ConfirmationTitle
	}
	if strings.TrimSpace(title.Text) == "" {
		name := tc.DisplayName
		if name == "" {
			name = tc.ToolName
		}
		title = ahpwire.StringOrMarkdown{Text: "Allow " + name + "?"}
	}
	out := r.richBlock(title, st.Title, width, detailIndent)
	if tc.InvocationMessage != nil && tc.InvocationMessage.Text != "" {
		out = append(out, r.richBlock(*tc.InvocationMessage, r.styles.Tool.Summary, width, detailIndent)...)
	}
	out = append(out, r.risk(tc.RiskAssessment, width)...)
	// What will change comes before the raw input, which often only
	// repeats it (an edit tool's path, old and new text): in a short
	// window the diff is what shows.
	if tc.Edits != nil && len(tc.Edits.Items) > 0 {
		out = append(out, r.section("Edits", width)...)
		for i := range tc.Edits.Items {
			out = append(out, r.fileEdit(&tc.Edits.Items[i], width, v)...)
		}
	}
	out = append(out, r.toolInput(tc, width, v)...)
	out = append(out, r.options(tc.Options, width)...)
	return append(out, r.hintLines(v.confirmHints(), width)...)
}

// risk renders a risk assessment line.
func (r *Renderer) risk(rk *ahpwire.ToolCallRiskAssessment, width int) []string {
	if rk == nil {
		return nil
	}
	st := r.styles.Confirm
	if rk.Status == "loading" {
		return textBlock("Risk: assessing…", width, st.Risk, detailIndent)
	}
	label, style := "Risk: assessed", st.Risk
	if rk.Safety != nil {
		s := *rk.Safety
		switch {
		case s >= 0.8:
			label, style = "Risk: low", st.RiskLow
		case s >= 0.5:
			label, style = "Risk: medium", st.Risk
		default:
			label, style = "Risk: high", st.RiskHigh
		}
		label += fmt.Sprintf(" (safety %.2f)", s)
	}
	spans := []inlineSpan{{text: label}}
	if rk.Reason != nil && rk.Reason.Text != "" {
		spans[0].text += " — "
		spans = append(spans, richSpans(*rk.Reason, false)...)
	}
	return r.inlineBlock(spans, style, width, detailIndent)
}

// options renders the host's approval choices, numbered in display order
// (the TUI's option keys), with a blank line between groups.
func (r *Renderer) options(opts []ahpwire.ConfirmationOption, width int) []string {
	st := r.styles.Confirm
	var out []string
	for i, o := range opts {
		if i > 0 && groupOf(o) != groupOf(opts[i-1]) {
			out = append(out, "")
		}
		style := st.Approve
		if o.Kind == "deny" {
			style = st.Deny
		}
		label := oneLine(o.Label)
		if label == "" {
			label = oneLine(o.ID)
		}
		out = append(out, hangBlock("["+strconv.Itoa(i+1)+"] ", label, width, style, detailIndent)...)
	}
	return out
}

func groupOf(o ahpwire.ConfirmationOption) int {
	if o.Group == nil {
		return -1 << 31
	}
	return *o.Group
}

// resultReview renders the prompt of a result waiting for review.
func (r *Renderer) resultReview(width int, v ViewOpts) []string {
	return append(textBlock("Review the result before the agent sees it.", width, r.styles.Confirm.Title, detailIndent),
		r.hintLines(v.reviewHints(), width)...)
}
