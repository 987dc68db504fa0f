package render

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/bytesize"
	"github.com/ahptui/ahptui/reducer"
	"github.com/charmbracelet/x/ansi"
)

// detailIndent indents everything below a tool pill.
const detailIndent = gutter + "  "

// toolCall renders a tool call: the one-line pill and, when expanded (or
// when the call waits for the user), its details.
func (r *Renderer) toolCall(m *reducer.Message, b *reducer.Block, k BlockKey, width int, v ViewOpts) []string {
	if b.Tool == nil {
		return nil
	}
	tc := capTool(b.Tool)
	t := r.observeTool(k, tc, v.Now, startHint(m, b))
	pill := r.toolPill(tc, t, width, v)
	body := r.toolBody(b, tc, k, width, v)
	lines := make([]string, 0, 1+len(body))
	return append(append(lines, pill), body...)
}

// bodyKey keys the tool body cache: the same call is drawn in the
// transcript and, at another width and with other hints, in the approval
// prompt, and both stay cached.
type bodyKey struct {
	k     BlockKey
	width int
	diff  int // ViewOpts.DiffLimit
	fp    string
}

// toolBody renders what follows a tool call's pill. Only the pill depends
// on Now, so a live call (re-rendered every frame for its timer) takes its
// body from a cache keyed by the immutable block, width, style and view
// fingerprint.
func (r *Renderer) toolBody(b *reducer.Block, tc *ahpwire.ToolCallState, k BlockKey, width int, v ViewOpts) []string {
	bk := bodyKey{k: k, width: width, diff: v.DiffLimit, fp: r.blockFingerprint(k, b, v)}
	if e := r.bodies[bk]; e != nil && e.blk == b && e.style == r.styles.Name {
		return e.lines
	}
	lines := r.drawToolBody(tc, k, width, v)
	if len(r.bodies) >= maxMsgCache {
		r.bodies = make(map[bodyKey]*blockEntry)
	}
	r.bodies[bk] = &blockEntry{blk: b, width: width, style: r.styles.Name, fp: bk.fp, lines: lines}
	return lines
}

func (r *Renderer) drawToolBody(tc *ahpwire.ToolCallState, k BlockKey, width int, v ViewOpts) []string {
	var lines []string
	switch tc.Status {
	case ahpwire.ToolPendingConfirmation:
		return r.confirmation(tc, width, v)
	case ahpwire.ToolPendingResultConfirmation:
		lines = append(lines, r.toolDetails(tc, width, v)...)
		return append(lines, r.resultReview(width, v)...)
	case ahpwire.ToolAuthRequired:
		lines = append(lines, r.authRequired(tc, width)...)
	}
	if v.Expanded[k] {
		lines = append(lines, r.toolDetails(tc, width, v)...)
	} else if lt, term := termOf(tc, v); lt != nil {
		lines = append(lines, r.liveTerminal(lt, term, false, width, v)...)
	} else if tc.Status == ahpwire.ToolCancelled && (tc.ReasonMessage != nil && tc.ReasonMessage.Text != "" || suggestion(tc) != "") {
		lines = append(lines, r.cancelReason(tc, width)...)
	} else {
		lines = append(lines, r.toolPreview(tc, width, v)...) // toolpreview.go
	}
	return lines
}

// toolIcon returns the status glyph and its style.
func (r *Renderer) toolIcon(tc *ahpwire.ToolCallState) (string, lipgloss.Style) {
	st := r.styles.Tool
	switch tc.Status {
	case ahpwire.ToolStreaming:
		return "◌", st.Running
	case ahpwire.ToolRunning:
		return "●", st.Running
	case ahpwire.ToolPendingConfirmation, ahpwire.ToolPendingResultConfirmation:
		return "?", st.Pending
	case ahpwire.ToolAuthRequired:
		return "!", st.Pending
	case ahpwire.ToolCompleted:
		if tc.Failed() {
			return "✗", st.Failed
		}
		return "✓", st.OK
	case ahpwire.ToolCancelled:
		return "⊘", st.Cancelled
	}
	return "·", st.Running
}

// toolSummary is the text after the name: the past-tense message once
// completed, else the invocation message, else the intention or a state
// word.
func toolSummary(tc *ahpwire.ToolCallState) ahpwire.StringOrMarkdown {
	switch {
	case tc.Status == ahpwire.ToolCompleted && tc.PastTenseMessage != nil && tc.PastTenseMessage.Text != "":
		return *tc.PastTenseMessage
	case tc.InvocationMessage != nil && tc.InvocationMessage.Text != "":
		return *tc.InvocationMessage
	case tc.Intention != "":
		return ahpwire.StringOrMarkdown{Text: tc.Intention}
	case tc.Status == ahpwire.ToolStreaming:
		return ahpwire.StringOrMarkdown{Text: "preparing…"}
	}
	return ahpwire.StringOrMarkdown{}
}

// toolState is a short state word shown after the summary, if any. The
// states that wait for the user say so instead of showing a timer.
func toolState(tc *ahpwire.ToolCallState) string {
	switch tc.Status {
	case ahpwire.ToolPendingConfirmation:
		return "waiting for approval"
	case ahpwire.ToolPendingResultConfirmation:
		return "waiting for review"
	case ahpwire.ToolAuthRequired:
		return "waiting for sign-in"
	case ahpwire.ToolCancelled:
		switch tc.Reason {
		case ahpwire.CancelDenied:
			return "denied"
		case ahpwire.CancelResultDenied:
			return "result rejected"
		case ahpwire.CancelSkipped:
			return "skipped"
		}
		return "cancelled"
	case ahpwire.ToolCompleted:
		if tc.Failed() {
			return "failed"
		}
	}
	return ""
}

// toolDuration is the pill's time: the execution time once the call ran
// (approval waits excluded), a live counter while it streams or runs, and
// nothing while it waits for the user.
func toolDuration(tc *ahpwire.ToolCallState, t blockTimes, now time.Time) string {
	switch tc.Status {
	case ahpwire.ToolStreaming:
		if d, ok := t.liveFor(now); ok {
			return fmtSeconds(d)
		}
	case ahpwire.ToolRunning:
		if d, ok := t.runningFor(now); ok {
			return fmtSeconds(d)
		}
	case ahpwire.ToolCompleted, ahpwire.ToolCancelled, ahpwire.ToolPendingResultConfirmation:
		if tc.Status == ahpwire.ToolCancelled && t.run.IsZero() {
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
func (r *Renderer) toolPill(tc *ahpwire.ToolCallState, t blockTimes, width int, v ViewOpts) string {
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
	full := name
	name = truncatePlain(name, max(avail, 1))
	b.WriteString(st.Name.Render(name))
	rest := avail - ansi.StringWidth(name)

	dur := toolDuration(tc, t, v.Now)
	state := toolState(tc)
	sum := toolSummary(tc)
	if strings.TrimSpace(sum.Text) == full {
		sum = ahpwire.StringOrMarkdown{} // the name says it already (Gemini's replace, Codex's exec, Claude Code's Bash)
	}
	summary := richSpans(sum, true)
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
func (r *Renderer) toolDetails(tc *ahpwire.ToolCallState, width int, v ViewOpts) []string {
	var out []string
	if tc.Intention != "" && tc.Intention != toolSummary(tc).Text {
		out = append(out, textBlock(tc.Intention, width, r.styles.Muted, detailIndent)...)
	}
	out = append(out, r.toolInput(tc, width, v)...)
	name := resourceName(tc, v)
	for _, c := range tc.Content {
		out = append(out, r.toolContent(c, name, width, v)...)
	}
	if tc.Failed() && tc.Error != nil && tc.Error.Message != "" {
		msg := tc.Error.Message
		if tc.Error.Code != "" {
			msg += " (" + tc.Error.Code + ")"
		}
		out = append(out, r.section("Error", width)...)
		out = append(out, textBlock(msg, width, r.styles.Error.Text, detailIndent)...)
	}
	if tc.Status == ahpwire.ToolCancelled {
		out = append(out, r.cancelReason(tc, width)...)
	}
	return out
}

// toolInput renders the tool's input: pretty-printed JSON when it parses,
// the streamed partial input while streaming, or a not-loaded note for a
// content reference that was not fetched.
func (r *Renderer) toolInput(tc *ahpwire.ToolCallState, width int, v ViewOpts) []string {
	var text string
	switch {
	case tc.Status == ahpwire.ToolStreaming:
		if tc.PartialInput != nil {
			text = *tc.PartialInput
		}
	case tc.ToolInput == nil:
		return nil
	case tc.ToolInput.Ref != nil:
		s, ok := v.resource(tc.ToolInput.Ref.URI)
		if !ok {
			return append(r.section("Input", width), r.notLoaded(tc.ToolInput.Ref, width, v)...)
		}
		text = s
	default:
		text = tc.ToolInput.Text
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
func (r *Renderer) notLoaded(ref *ahpwire.ContentRef, width int, v ViewOpts) []string {
	if st, ok := v.Loading[ref.URI]; ok {
		return textBlock("‹"+oneLine(st)+": "+displayURI(ref.URI)+"›", width, r.styles.Muted, detailIndent+"  ")
	}
	s := "‹not loaded: " + displayURI(ref.URI)
	if n := sizeOf(ref.SizeHint); n >= 0 {
		s += ", " + bytesize.Format(n)
	}
	s += "›"
	return textBlock(s, width, r.styles.Muted, detailIndent+"  ")
}

// cancelReason renders why a tool call was cancelled.
func (r *Renderer) cancelReason(tc *ahpwire.ToolCallState, width int) []string {
	var head string
	switch tc.Reason {
	case ahpwire.CancelDenied:
		head = "Denied"
	case ahpwire.CancelResultDenied:
		head = "Result rejected"
	case ahpwire.CancelSkipped:
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
	if s := suggestion(tc); s != "" {
		out = append(out, textBlock("Suggestion: "+s, width, r.styles.Muted, detailIndent)...)
	}
	return out
}

// authRequired renders a pending MCP authentication.
func (r *Renderer) authRequired(tc *ahpwire.ToolCallState, width int) []string {
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
	if a.Resource.Resource != "" {
		parts = append(parts, "Resource: "+a.Resource.Resource)
	}
	if len(a.RequiredScopes) > 0 {
		parts = append(parts, "Scopes: "+strings.Join(a.RequiredScopes, ", "))
	}
	return textBlock(strings.Join(parts, "\n"), width, r.styles.Tool.Reason, detailIndent)
}

// suggestion returns the user's suggestion of a denied tool call ("" if
// none).
func suggestion(tc *ahpwire.ToolCallState) string {
	if tc.UserSuggestion == nil {
		return ""
	}
	return tc.UserSuggestion.Text
}

// oneLine sanitises s and folds it onto one line.
func oneLine(s string) string {
	s = Sanitize(s)
	if !strings.ContainsAny(s, "\n") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}
