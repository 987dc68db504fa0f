package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/ahptui/ahptui/reducer"
	"github.com/charmbracelet/x/ansi"
)

// detailIndent indents everything below a tool pill.
const detailIndent = gutter + "  "

// toolCall renders a tool call: the one-line pill and, when expanded (or
// when the call waits for the user), its details.
func (r *Renderer) toolCall(m *reducer.Message, b *reducer.Block, k BlockKey, width int, v ViewOpts) []string {
	tc := b.Tool
	if tc == nil {
		return nil
	}
	t := r.observeTool(k, tc, v.Now, startHint(m, b))
	lines := []string{r.toolPill(tc, t, width, v)}
	switch tc.Status {
	case reducer.ToolPendingConfirmation:
		return append(lines, r.confirmation(tc, width, v)...)
	case reducer.ToolPendingResultConfirmation:
		lines = append(lines, r.toolDetails(tc, width, v)...)
		return append(lines, r.resultReview(width, v)...)
	case reducer.ToolAuthRequired:
		lines = append(lines, r.authRequired(tc, width)...)
	}
	if v.Expanded[k] {
		lines = append(lines, r.toolDetails(tc, width, v)...)
	} else if lt, term := termOf(tc, v); lt != nil {
		lines = append(lines, r.liveTerminal(lt, term, false, width, v)...)
	} else if tc.Status == reducer.ToolCancelled && (tc.ReasonMessage != nil && tc.ReasonMessage.Text != "" || tc.UserSuggestion != "") {
		lines = append(lines, r.cancelReason(tc, width)...)
	}
	return lines
}

// toolIcon returns the status glyph and its style.
func (r *Renderer) toolIcon(tc *reducer.ToolCall) (string, lipgloss.Style) {
	st := r.styles.Tool
	switch tc.Status {
	case reducer.ToolStreaming:
		return "◌", st.Running
	case reducer.ToolRunning:
		return "●", st.Running
	case reducer.ToolPendingConfirmation, reducer.ToolPendingResultConfirmation:
		return "?", st.Pending
	case reducer.ToolAuthRequired:
		return "!", st.Pending
	case reducer.ToolCompleted:
		if tc.Result != nil && !tc.Result.Success {
			return "✗", st.Failed
		}
		return "✓", st.OK
	case reducer.ToolCancelled:
		return "⊘", st.Cancelled
	}
	return "·", st.Running
}

// toolSummary is the text after the name: the past-tense message once
// completed, else the invocation message, else the intention or a state
// word.
func toolSummary(tc *reducer.ToolCall) reducer.Rich {
	switch {
	case tc.Status == reducer.ToolCompleted && tc.Result != nil && tc.Result.PastTenseMessage.Text != "":
		return tc.Result.PastTenseMessage
	case tc.InvocationMessage != nil && tc.InvocationMessage.Text != "":
		return *tc.InvocationMessage
	case tc.Intention != "":
		return reducer.Rich{Text: tc.Intention}
	case tc.Status == reducer.ToolStreaming:
		return reducer.Rich{Text: "preparing…"}
	}
	return reducer.Rich{}
}

// toolState is a short state word shown after the summary, if any. The
// states that wait for the user say so instead of showing a timer.
func toolState(tc *reducer.ToolCall) string {
	switch tc.Status {
	case reducer.ToolPendingConfirmation:
		return "waiting for approval"
	case reducer.ToolPendingResultConfirmation:
		return "waiting for review"
	case reducer.ToolAuthRequired:
		return "waiting for sign-in"
	case reducer.ToolCancelled:
		switch tc.CancelReason {
		case reducer.CancelDenied:
			return "denied"
		case reducer.CancelResultDenied:
			return "result rejected"
		case reducer.CancelSkipped:
			return "skipped"
		}
		return "cancelled"
	case reducer.ToolCompleted:
		if tc.Result != nil && !tc.Result.Success {
			return "failed"
		}
	}
	return ""
}

// toolDuration is the pill's time: the execution time once the call ran
// (approval waits excluded), a live counter while it streams or runs, and
// nothing while it waits for the user.
func toolDuration(tc *reducer.ToolCall, t blockTimes, now time.Time) string {
	switch tc.Status {
	case reducer.ToolStreaming:
		if d, ok := t.liveFor(now); ok {
			return fmtSeconds(d)
		}
	case reducer.ToolRunning:
		if d, ok := t.runningFor(now); ok {
			return fmtSeconds(d)
		}
	case reducer.ToolCompleted, reducer.ToolCancelled, reducer.ToolPendingResultConfirmation:
		if tc.Status == reducer.ToolCancelled && t.run.IsZero() {
			return "" // never ran: denied or skipped
		}
		if d, ok := t.ran(); ok {
			return fmtDuration(d)
		}
	}
	return ""
}

// minSummary is the narrowest summary worth showing; below it the pill
// drops the summary and keeps name, state and time.
const minSummary = 8

// toolPill renders the one-line summary: icon, name, summary (inline
// markdown), state and duration. It never exceeds width: the summary gets
// what the other parts leave, then the state is cut, then the name.
func (r *Renderer) toolPill(tc *reducer.ToolCall, t blockTimes, width int, v ViewOpts) string {
	st := r.styles.Tool
	icon, ist := r.toolIcon(tc)
	name := oneLine(tc.DisplayName)
	if name == "" {
		name = oneLine(tc.ToolName)
	}
	avail := width - len(gutter) - 2 // after "  ✓ "
	var b strings.Builder
	b.WriteString(gutter)
	b.WriteString(ist.Render(icon))
	b.WriteByte(' ')
	name = truncatePlain(name, max(avail, 1))
	b.WriteString(st.Name.Render(name))
	rest := avail - ansi.StringWidth(name)

	dur := toolDuration(tc, t, v.Now)
	state := toolState(tc)
	summary := richSpans(toolSummary(tc), true)
	tailW := 0 // state and duration with their separators
	if state != "" {
		tailW += 2 + ansi.StringWidth(state)
	}
	if dur != "" {
		tailW += 2 + ansi.StringWidth(dur)
	}
	if dur != "" && tailW > rest {
		dur, tailW = "", tailW-2-ansi.StringWidth(dur)
	}
	room := rest - tailW - 2
	if state != "" {
		room-- // " — " instead of "  "
	}
	sep := "  "
	if sw := spansWidth(summary); sw > 0 && room >= min(minSummary, sw) {
		b.WriteString("  ")
		b.WriteString(r.inlineLine(summary, st.Summary, room))
		rest -= 2 + min(room, sw)
		sep = " — "
	}
	if state != "" && rest >= ansi.StringWidth(sep)+1 {
		if sep == "  " {
			b.WriteString(sep)
		} else {
			b.WriteString(st.Summary.Render(sep))
		}
		rest -= ansi.StringWidth(sep)
		state = truncatePlain(state, rest)
		b.WriteString(ist.UnsetBold().Render(state))
		rest -= ansi.StringWidth(state)
	}
	if dur != "" && rest >= 2+ansi.StringWidth(dur) {
		b.WriteString("  ")
		b.WriteString(st.Duration.Render(dur))
	}
	return b.String()
}

// toolDetails renders the expanded body: input, content, error and cancel
// reason.
func (r *Renderer) toolDetails(tc *reducer.ToolCall, width int, v ViewOpts) []string {
	var out []string
	if tc.Intention != "" && tc.Intention != toolSummary(tc).Text {
		out = append(out, textBlock(tc.Intention, width, r.styles.Muted, detailIndent)...)
	}
	out = append(out, r.toolInput(tc, width, v)...)
	name := resourceName(tc, v)
	for _, c := range tc.Content {
		out = append(out, r.toolContent(c, name, width, v)...)
	}
	if tc.Result != nil && !tc.Result.Success && tc.Result.ErrorMessage != "" {
		msg := tc.Result.ErrorMessage
		if tc.Result.ErrorCode != "" {
			msg += " (" + tc.Result.ErrorCode + ")"
		}
		out = append(out, r.section("Error", width)...)
		out = append(out, textBlock(msg, width, r.styles.Error.Text, detailIndent)...)
	}
	if tc.Status == reducer.ToolCancelled {
		out = append(out, r.cancelReason(tc, width)...)
	}
	return out
}

// toolInput renders the tool's input: pretty-printed JSON when it parses,
// the streamed partial input while streaming, or a not-loaded note for a
// content reference that was not fetched.
func (r *Renderer) toolInput(tc *reducer.ToolCall, width int, v ViewOpts) []string {
	var text string
	switch {
	case tc.Status == reducer.ToolStreaming:
		text = tc.PartialInput()
	case tc.Input == nil:
		return nil
	case tc.Input.Ref != nil:
		s, ok := v.resource(tc.Input.Ref.URI)
		if !ok {
			return append(r.section("Input", width), r.notLoaded(tc.Input.Ref, width, v)...)
		}
		text = s
	default:
		text = tc.Input.Text
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return append(r.section("Input", width), r.codeBlock(prettyJSON(text), width, TabWidth)...)
}

// prettyJSON indents s when it is valid JSON and returns it unchanged
// otherwise.
func prettyJSON(s string) string {
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(strings.TrimSpace(s)), "", "  "); err != nil {
		return s
	}
	return buf.String()
}

// section renders a sub-heading inside a tool call.
func (r *Renderer) section(title string, width int) []string {
	return []string{detailIndent + r.styles.Tool.Section.Render(truncatePlain(title, width-len(detailIndent)))}
}

// codeBlock sanitises text (with the given tab stop) and hard-wraps each of
// its lines under the detail indent, showing at most maxHeadLines lines.
func (r *Renderer) codeBlock(text string, width, tab int) []string {
	text, more := capLines(strings.TrimRight(text, "\n "), maxHeadLines, false)
	out := r.codeLines(text, width, tab)
	if more > 0 {
		out = append(out, r.omitted(more, "more", width))
	}
	return out
}

// omitted notes lines left out of a capped output.
func (r *Renderer) omitted(n int, which string, width int) string {
	return detailIndent + "  " + r.styles.Muted.Render(truncatePlain("… "+strconv.Itoa(n)+" "+which+" lines", width-len(detailIndent)-2))
}

// codeLines sanitises and hard-wraps every line of text under the detail
// indent.
func (r *Renderer) codeLines(text string, width, tab int) []string {
	text = strings.TrimRight(SanitizeTabs(text, tab), "\n ")
	inner := max(width-len(detailIndent)-2, 1)
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " ")
		if l == "" {
			out = append(out, "")
			continue
		}
		for i, p := range wrapCode(l, inner) {
			if i == 0 {
				out = append(out, detailIndent+"  "+r.styles.Code.Render(p))
			} else {
				out = append(out, detailIndent+" "+r.styles.Muted.Render(contMark)+r.styles.Code.Render(p))
			}
		}
	}
	return out
}

// notLoaded notes content that lives behind a reference the caller has not
// fetched.
func (r *Renderer) notLoaded(ref *reducer.ContentRef, width int, v ViewOpts) []string {
	if st, ok := v.Loading[ref.URI]; ok {
		return textBlock("‹"+oneLine(st)+": "+displayURI(ref.URI)+"›", width, r.styles.Muted, detailIndent+"  ")
	}
	s := "‹not loaded: " + displayURI(ref.URI)
	if ref.SizeHint >= 0 {
		s += ", " + fmtBytes(ref.SizeHint)
	}
	s += "›"
	return textBlock(s, width, r.styles.Muted, detailIndent+"  ")
}

// cancelReason renders why a tool call was cancelled.
func (r *Renderer) cancelReason(tc *reducer.ToolCall, width int) []string {
	var head string
	switch tc.CancelReason {
	case reducer.CancelDenied:
		head = "Denied"
	case reducer.CancelResultDenied:
		head = "Result rejected"
	case reducer.CancelSkipped:
		head = "Skipped"
	default:
		head = "Cancelled"
	}
	spans := []inlineSpan{{text: head}}
	if tc.ReasonMessage != nil && tc.ReasonMessage.Text != "" {
		spans[0].text += ": "
		spans = append(spans, richSpans(*tc.ReasonMessage, false)...)
	}
	out := r.inlineBlock(spans, r.styles.Tool.Reason, width, detailIndent)
	if tc.UserSuggestion != "" {
		out = append(out, textBlock("Suggestion: "+tc.UserSuggestion, width, r.styles.Muted, detailIndent)...)
	}
	return out
}

// authRequired renders a pending MCP authentication.
func (r *Renderer) authRequired(tc *reducer.ToolCall, width int) []string {
	a := tc.Auth
	if a == nil {
		return nil
	}
	var parts []string
	if a.Description != "" {
		parts = append(parts, a.Description)
	} else if a.Reason != "" {
		parts = append(parts, a.Reason)
	}
	if a.Resource != "" {
		parts = append(parts, "Resource: "+a.Resource)
	}
	if len(a.Scopes) > 0 {
		parts = append(parts, "Scopes: "+strings.Join(a.Scopes, ", "))
	}
	return textBlock(strings.Join(parts, "\n"), width, r.styles.Tool.Reason, detailIndent)
}

// oneLine sanitises s and folds it onto one line.
func oneLine(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, "\n") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}
