package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/reducer"
)

// toolContent renders one item of tool output; name labels an embedded
// resource (see resourceName).
func (r *Renderer) toolContent(c reducer.ToolContent, name string, width int, v ViewOpts) []string {
	st := r.styles.Tool
	switch c.Type {
	case reducer.ContentText:
		if strings.TrimSpace(c.Text) == "" {
			return nil
		}
		text, more := capLines(strings.TrimRight(c.Text, "\n"), maxHeadLines, false)
		out := append(r.section("Output", width), textBlock(text, width, st.Body, detailIndent+"  ")...)
		if more > 0 {
			out = append(out, r.omitted(more, "more", width))
		}
		return out
	case reducer.ContentTerminal:
		if c.Terminal == nil {
			return nil
		}
		if lt := v.Terminals[c.Terminal.Resource]; lt != nil {
			return r.liveTerminal(lt, c.Terminal, true, width, v)
		}
		return r.terminal(c.Terminal, width)
	case reducer.ContentFileEdit:
		if c.Edit == nil {
			return nil
		}
		return r.fileEdit(c.Edit, width, v)
	case reducer.ContentResource:
		s := displayURI(c.URI)
		if meta := refMeta(c.ContentType, c.SizeHint); meta != "" {
			s += " (" + meta + ")"
		}
		return hangBlock("→ ", s, width, st.Link, detailIndent)
	case reducer.ContentEmbeddedResource:
		return r.embedded(c, name, width)
	case reducer.ContentSubagent:
		return r.subagent(c.Subagent, width)
	}
	return nil // unknown content types are skipped
}

// terminal renders a terminal run: title, output preview (tab stops of
// TerminalTabWidth), truncation note and exit code.
func (r *Renderer) terminal(t *reducer.TerminalOutput, width int) []string {
	if t == nil {
		return nil
	}
	st := r.styles.Tool
	title := oneLine(t.Title)
	if title == "" {
		title = "Terminal"
	}
	out := []string{detailIndent + st.Section.Render(truncatePlain("$ "+title, width-len(detailIndent)))}
	if strings.TrimSpace(t.Output) != "" {
		text, earlier := capLines(strings.TrimRight(t.Output, "\n "), maxTailLines, true)
		if earlier > 0 {
			out = append(out, r.omitted(earlier, "earlier", width))
		}
		out = append(out, r.codeLines(text, width, TerminalTabWidth)...)
	}
	if t.Truncated {
		note := "… output truncated"
		if t.Resource != "" {
			note += "; full output at " + displayURI(t.Resource)
		}
		out = append(out, textBlock(note, width, r.styles.Muted, detailIndent+"  ")...)
	}
	switch {
	case t.ExitCode == nil:
	case *t.ExitCode == 0:
		out = append(out, detailIndent+st.ExitOK.Render("exit 0"))
	default:
		out = append(out, detailIndent+st.ExitFailed.Render("exit "+strconv.Itoa(*t.ExitCode)))
	}
	return out
}

// fileEdit renders a file edit: a header with the path and line counts and,
// when the caller supplied both contents, a coloured unified diff.
func (r *Renderer) fileEdit(e *reducer.FileEdit, width int, v ViewOpts) []string {
	st := r.styles.Diff
	path := displayURI(e.Path())
	var verb string
	switch {
	case e.BeforeURI == "" && e.BeforeContent == nil:
		verb = "created "
	case e.AfterURI == "" && e.AfterContent == nil:
		verb = "deleted "
	case e.BeforeURI != "" && e.AfterURI != "" && e.BeforeURI != e.AfterURI:
		verb = "renamed " + displayURI(e.BeforeURI) + " → "
	}
	head := verb + path
	before, okB := refText(e.BeforeContent, v)
	after, okA := refText(e.AfterContent, v)
	added, removed := e.Added, e.Removed
	if (added < 0 || removed < 0) && okB && okA {
		added, removed = diffCounts(before, after)
	}
	if added >= 0 && removed >= 0 {
		head += fmt.Sprintf(" (+%d −%d)", added, removed)
	}
	out := []string{detailIndent + st.File.Render(truncatePlain(head, width-len(detailIndent)))}
	if !okB || !okA {
		missing := e.BeforeContent
		if okB {
			missing = e.AfterContent
		}
		return append(out, r.notLoaded(missing, width, v)...)
	}
	return append(out, r.diffLines(before, after, width, v.DiffLimit)...)
}

// refText returns the fetched text of ref; a nil ref is empty content.
func refText(ref *reducer.ContentRef, v ViewOpts) (string, bool) {
	if ref == nil {
		return "", true
	}
	s, ok := v.resource(ref.URI)
	return s, ok
}

// diffLines renders the unified diff of before and after, at most limit
// diff lines (0: 2×maxHeadLines; < 0: all).
func (r *Renderer) diffLines(before, after string, width, limit int) []string {
	st := r.styles.Diff
	inner := max(width-len(detailIndent)-2, 1)
	var out []string
	diff := unifiedDiff(Sanitize(before), Sanitize(after), diffContext)
	if limit == 0 {
		limit = 2 * maxHeadLines
	}
	more := 0
	if limit > 0 {
		more = max(len(diff)-limit, 0)
	}
	diff = diff[:len(diff)-more]
	for _, l := range diff {
		style := st.Context
		switch {
		case strings.HasPrefix(l, "@@"):
			style = st.Hunk
		case strings.HasPrefix(l, "+"):
			style = st.Add
		case strings.HasPrefix(l, "-"):
			style = st.Del
		}
		l = strings.TrimRight(l, " ")
		if len(l) <= 1 || strings.HasPrefix(l, "@@") {
			out = append(out, detailIndent+"  "+style.Render(truncatePlain(l, inner)))
			continue
		}
		// The sign stays in its column; continuation rows show contMark
		// there, in the line's colour.
		for i, p := range wrapCode(l[1:], inner-1) {
			sign := l[:1]
			if i > 0 {
				sign = contMark
			}
			out = append(out, detailIndent+"  "+style.Render(sign+p))
		}
	}
	if more > 0 {
		out = append(out, r.omitted(more, "more diff", width))
	}
	if len(out) == 0 {
		out = append(out, detailIndent+"  "+r.styles.Muted.Render("(no changes)"))
	}
	return out
}

// subagent renders a link to a sub-agent's chat.
func (r *Renderer) subagent(s *reducer.SubagentLink, width int) []string {
	if s == nil {
		return nil
	}
	head := "sub-agent"
	if n := oneLine(s.AgentName); n != "" {
		head += " " + n
	}
	if t := oneLine(s.Title); t != "" {
		head += ": " + t
	}
	out := hangBlock("↳ ", head, width, r.styles.Tool.Section, detailIndent)
	if s.Description != "" {
		out = append(out, textBlock(s.Description, width, r.styles.Muted, detailIndent+"  ")...)
	}
	if s.Resource != "" {
		out = append(out, hangBlock("→ ", displayURI(s.Resource), width, r.styles.Tool.Link, detailIndent+"  ")...)
	}
	return out
}

// refMeta formats "type, size" for a reference (parts that are unknown are
// left out).
func refMeta(contentType string, size int64) string {
	var parts []string
	if contentType != "" {
		parts = append(parts, oneLine(contentType))
	}
	if size >= 0 {
		parts = append(parts, fmtBytes(size))
	}
	return strings.Join(parts, ", ")
}

// fmtBytes formats a byte count ("512 B", "4.0 KB", "1.2 MB").
func fmtBytes(n int64) string {
	switch {
	case n < 1024:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}
