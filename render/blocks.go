package render

import (
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// userHeader is the first line of a user message: who sent it.
func (r *Renderer) userHeader(m *reducer.Message, width int) []string {
	who := "You"
	switch m.Origin {
	case "", "user":
	case "agent":
		who = "Agent"
	case "tool":
		who = "Tool"
	case "automation":
		who = "Automation"
	case "systemNotification":
		who = "System"
	default:
		who = oneLine(m.Origin)
	}
	return []string{gutter + r.styles.User.Label.Render(truncatePlain("› "+who, width-len(gutter)))}
}

// userText renders a user message's text as typed (plain, wrapped).
func (r *Renderer) userText(b *reducer.Block, width int) []string {
	return textBlock(b.Text(), width, r.styles.User.Text, gutter)
}

// attachments lists a user message's attachments.
func (r *Renderer) attachments(m *reducer.Message, width int) []string {
	var out []string
	for _, a := range m.Attachments {
		s := "+ " + a.Label
		if a.URI != "" && a.URI != a.Label {
			s += " (" + displayURI(a.URI) + ")"
		}
		out = append(out, gutter+r.styles.Muted.Render(truncatePlain(oneLine(s), width-len(gutter))))
	}
	return out
}

// footer renders an assistant message's end state and usage line.
func (r *Renderer) footer(m *reducer.Message, width int, v ViewOpts) []string {
	var out []string
	switch m.Status {
	case reducer.StatusCancelled:
		out = append(out, gutter+r.styles.Tool.Cancelled.Render("⊘ Cancelled"))
	case reducer.StatusInterrupted:
		out = append(out, gutter+r.styles.Tool.Cancelled.Render("⊘ Interrupted"))
	}
	if u := usageLine(m); u != "" {
		out = append(out, gutter+r.styles.Usage.Render(truncatePlain(u, width-len(gutter))))
	}
	return out
}

// usageLine formats token usage and turn duration ("" when neither is
// known).
func usageLine(m *reducer.Message) string {
	var parts []string
	if u := m.Usage; u != nil {
		parts = append(parts, fmtCount(u.InputTokens)+" in", fmtCount(u.OutputTokens)+" out")
		if u.CacheReadTokens > 0 {
			parts = append(parts, fmtCount(u.CacheReadTokens)+" cached")
		}
		if u.Model != "" {
			parts = append(parts, oneLine(u.Model))
		}
	}
	if m.Duration > 0 {
		parts = append(parts, fmtDuration(m.Duration))
	}
	if len(parts) == 0 {
		return ""
	}
	return "↳ " + strings.Join(parts, " · ")
}

// fmtCount formats a token count with thousands separators.
func fmtCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// errorBlock renders a turn error with its type, the stack when expanded,
// and a hint when the turn can be resumed.
func (r *Renderer) errorBlock(b *reducer.Block, width int, expanded bool) []string {
	e := b.Err
	if e == nil {
		return nil
	}
	st := r.styles.Error
	msg := oneLine(e.Message)
	if msg == "" {
		msg = "unknown error"
	}
	out := hangBlock("✗ ", "Error: "+msg, width, st.Label, gutter)
	if e.ErrorType != "" {
		out = append(out, textBlock(e.ErrorType, width, st.Text, detailIndent)...)
	}
	if expanded && strings.TrimSpace(e.Stack) != "" {
		out = append(out, r.codeBlock(e.Stack, width, TabWidth)...)
	}
	switch {
	case e.Resumable:
		out = append(out, hangBlock("↻ ", "resumable — this turn can be resumed", width, st.Hint, detailIndent)...)
	case e.Resumed:
		out = append(out, hangBlock("↻ ", "resumed — the reply goes on below", width, st.Hint, detailIndent)...)
	}
	return out
}

// notification renders a system notification (markdown through the
// markdown engine, plain text otherwise).
func (r *Renderer) notification(b *reducer.Block, k BlockKey, width int) []string {
	text := b.Text()
	if b.Markdown {
		return append([]string{gutter + r.styles.Notice.Render("ℹ Notice")}, r.md.Lines(mdID(k), text, true, width)...)
	}
	return hangBlock("ℹ ", text, width, r.styles.Notice, gutter)
}

// blockURIs lists the content references a block can show when fetched:
// a tool's input reference and the before/after contents of its edits.
func blockURIs(b *reducer.Block) []string {
	if b.Kind == reducer.KindContentRef && b.Ref != nil && Fetchable(b.Ref.ContentType) {
		return []string{b.Ref.URI}
	}
	tc := b.Tool
	if b.Kind != reducer.KindToolCall || tc == nil {
		return nil
	}
	var out []string
	if tc.ToolInput != nil && tc.ToolInput.Ref != nil {
		out = append(out, tc.ToolInput.Ref.URI)
	}
	addEdit := func(before, after *ahpwire.FileEditSide) {
		if before != nil {
			out = append(out, before.Content.URI)
		}
		if after != nil {
			out = append(out, after.Content.URI)
		}
	}
	if tc.Edits != nil {
		for _, e := range tc.Edits.Items {
			addEdit(e.Before, e.After)
		}
	}
	for _, c := range tc.Content {
		switch {
		case c.Type == ahpwire.ContentFileEdit:
			addEdit(c.Before, c.After)
		case c.Type == ahpwire.ContentResource && c.URI != "" && Fetchable(c.ContentType):
			out = append(out, c.URI)
		}
	}
	return out
}

// resourceURIs lists blockURIs over all blocks of m.
func resourceURIs(m *reducer.Message) []string {
	var out []string
	for _, b := range m.Blocks.All() {
		out = append(out, blockURIs(b)...)
	}
	return out
}

// NeededResources returns the content URIs the rendering of m under v
// would show but v.Resources lacks: inputs and file-edit contents of tool
// calls that are expanded or wait for confirmation. The TUI fetches them
// (resourceRead, outside render) and renders again.
func NeededResources(m *reducer.Message, v ViewOpts) []string {
	if m == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, b := range m.Blocks.All() {
		switch {
		case b.Kind == reducer.KindContentRef:
		case b.Kind != reducer.KindToolCall || b.Tool == nil:
			continue
		case !v.Expanded[KeyOf(m, b)] && b.Tool.Status != ahpwire.ToolPendingConfirmation:
			for _, u := range previewURIs(b) { // the collapsed diff (toolpreview.go)
				if _, ok := v.Resources[u]; !ok && !isDataURI(u) && !seen[u] {
					seen[u] = true
					out = append(out, u)
				}
			}
			continue
		}
		for _, u := range blockURIs(b) {
			if _, ok := v.Resources[u]; !ok && !isDataURI(u) && !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}
