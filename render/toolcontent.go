package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/bytesize"
)

// toolContent renders one item of tool output; name labels an embedded
// resource (see resourceName).
func (r *Renderer) toolContent(c ahpwire.ToolResultContent, name string, width int, v ViewOpts) []string {
	st := r.styles.Tool
	switch c.Type {
	case ahpwire.ContentText:
		if strings.TrimSpace(c.Text) == "" {
			return nil
		}
		text, more := capLines(strings.TrimRight(c.Text, "\n"), maxHeadLines, false)
		text = capLineBytes(text)
		out := append(r.section("Output", width), textBlock(text, width, st.Body, detailIndent+"  ")...)
		if more > 0 {
			out = append(out, r.omitted(more, "more", width))
		}
		return out
	case ahpwire.ContentTerminal:
		if lt := v.Terminals[c.Resource]; lt != nil {
			return r.liveTerminal(lt, &c, true, width, v)
		}
		return r.terminal(&c, width)
	case ahpwire.ContentFileEdit:
		return r.fileEdit(&ahpwire.FileEdit{Before: c.Before, After: c.After, Diff: c.Diff}, width, v)
	case ahpwire.ContentResource:
		ref := &ahpwire.ContentRef{URI: c.URI, SizeHint: c.SizeHint, ContentType: c.ContentType}
		if text, ok := v.resource(c.URI); ok && Fetchable(c.ContentType) {
			out := hangBlock("→ ", displayURI(c.URI), width, st.Link, detailIndent)
			if refClass(c.ContentType) != refMarkdown {
				return append(out, r.refContent(ref, text, width)...)
			}
			for _, l := range r.refContent(ref, text, max(width-2, 1)) {
				out = append(out, "  "+l) // markdown under the tool's details
			}
			return out
		}
		s := displayURI(c.URI)
		if meta := refMeta(c.ContentType, sizeOf(c.SizeHint)); meta != "" {
			s += " (" + meta + ")"
		}
		if why, loading := v.Loading[c.URI]; loading {
			s += " — " + oneLine(why)
		}
		return hangBlock("→ ", s, width, st.Link, detailIndent)
	case ahpwire.ContentEmbeddedResource:
		return r.embedded(c, name, width)
	case ahpwire.ContentSubagent:
		return r.subagent(&c, width)
	}
	return nil // unknown content types are skipped
}

// terminal renders a terminal run (a terminal content item): title, output
// preview (tab stops of TerminalTabWidth), truncation note and exit code.
func (r *Renderer) terminal(t *ahpwire.ToolResultContent, width int) []string {
	var res ahpwire.TerminalCommandResult
	if t.Result != nil {
		res = *t.Result
	}
	st := r.styles.Tool
	title := oneLine(t.Title)
	if title == "" {
		title = "Terminal"
	}
	out := []string{detailIndent + st.Section.Render(truncatePlain("$ "+title, width-len(detailIndent)))}
	if strings.TrimSpace(res.Preview) != "" {
		text, earlier := capLines(strings.TrimRight(res.Preview, "\n "), maxTailLines, true)
		if earlier > 0 {
			out = append(out, r.omitted(earlier, "earlier", width))
		}
		out = append(out, r.codeLines(text, width, TerminalTabWidth)...)
	}
	if res.Truncated != nil && *res.Truncated {
		note := "… output truncated"
		if t.Resource != "" {
			note += "; full output at " + displayURI(t.Resource)
		}
		out = append(out, textBlock(note, width, r.styles.Muted, detailIndent+"  ")...)
	}
	switch {
	case res.ExitCode == nil:
	case *res.ExitCode == 0:
		out = append(out, detailIndent+st.ExitOK.Render("exit 0"))
	default:
		out = append(out, detailIndent+st.ExitFailed.Render("exit "+strconv.Itoa(*res.ExitCode)))
	}
	return out
}

// fileEdit renders a file edit: a header with the path and line counts and,
// when the caller supplied both contents, a coloured unified diff.
func (r *Renderer) fileEdit(e *ahpwire.FileEdit, width int, v ViewOpts) []string {
	st := r.styles.Diff
	beforeURI, beforeRef := editSide(e.Before)
	afterURI, afterRef := editSide(e.After)
	path := afterURI
	if path == "" {
		path = beforeURI
	}
	var verb string
	switch {
	case beforeURI == "" && beforeRef == nil:
		verb = "created "
	case afterURI == "" && afterRef == nil:
		verb = "deleted "
	case beforeURI != "" && afterURI != "" && beforeURI != afterURI:
		verb = "renamed " + displayFile(beforeURI, v.WorkDirs) + " → "
	}
	head := verb + displayFile(path, v.WorkDirs)
	before, okB := refText(beforeRef, v)
	after, okA := refText(afterRef, v)
	added, removed := int64(-1), int64(-1)
	if d := e.Diff; d != nil && d.Added != nil && d.Removed != nil && *d.Added >= 0 && *d.Removed >= 0 {
		added, removed = *d.Added, *d.Removed
	} else if okB && okA {
		added, removed = diffCounts(before, after)
	}
	if added >= 0 && removed >= 0 {
		head += fmt.Sprintf(" (+%d −%d)", added, removed)
	}
	out := []string{detailIndent + st.File.Render(truncatePlain(head, width-len(detailIndent)))}
	if !okB || !okA {
		missing := beforeRef
		if okB {
			missing = afterRef
		}
		return append(out, r.notLoaded(missing, width, v)...)
	}
	return append(out, r.diffLines(before, after, width, v.DiffLimit)...)
}

// editSide returns the URI and content reference of one side of a file
// edit ("" and nil when the side is absent).
func editSide(s *ahpwire.FileEditSide) (string, *ahpwire.ContentRef) {
	if s == nil {
		return "", nil
	}
	return s.URI, &s.Content
}

// sizeOf returns a size hint, -1 when unknown.
func sizeOf(hint *int64) int64 {
	if hint == nil {
		return -1
	}
	return *hint
}

// refText returns the fetched text of ref; a nil ref is empty content.
func refText(ref *ahpwire.ContentRef, v ViewOpts) (string, bool) {
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
	if tooLargeToDiff(before, after) {
		note := fmt.Sprintf("(the diff is too large to show here: %d lines before, %d after, %d MiB; open the file in an editor)",
			countLines(before), countLines(after), (len(before)+len(after))>>20)
		return []string{detailIndent + "  " + st.Hunk.Render(truncatePlain(note, inner))}
	}
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
		out = appendDiffRows(out, l, inner, style)
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
func (r *Renderer) subagent(s *ahpwire.ToolResultContent, width int) []string {
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
		parts = append(parts, bytesize.Format(size))
	}
	return strings.Join(parts, ", ")
}
