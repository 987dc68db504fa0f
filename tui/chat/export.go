package chat

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// maxExportToolText bounds the tool input/output quoted in an export.
const maxExportToolText = 4000

// messageMarkdown renders one message as markdown. All server text goes
// through render.Sanitize (no escape sequences or control characters;
// tabs kept as they are, copycode.go).
func messageMarkdown(m *reducer.Message) string { return messageMarkdownRefs(m, nil) }

// messageMarkdownRefs is messageMarkdown with content references resolved
// by read (nil: references are exported as links).
func messageMarkdownRefs(m *reducer.Message, read refReader) string {
	var b strings.Builder
	switch m.Role {
	case reducer.RoleUser:
		b.WriteString("## You\n\n")
	default:
		b.WriteString("## Agent\n\n")
	}
	for _, a := range m.Attachments {
		fmt.Fprintf(&b, "- attachment: %s\n", uikit.OneLine(render.Sanitize(cmp.Or(a.Label, a.URI))))
	}
	if len(m.Attachments) > 0 {
		b.WriteString("\n")
	}
	for _, blk := range m.Blocks.All() {
		if s := blockMarkdownRefs(blk, read); s != "" {
			b.WriteString(s)
			b.WriteString("\n\n")
		}
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// blockMarkdownRefs renders one block; collapsed blocks are exported in
// full, content references through read.
func blockMarkdownRefs(blk *reducer.Block, read refReader) string {
	switch blk.Kind {
	case reducer.KindContentRef:
		return refMarkdown(blk, read)
	case reducer.KindText, reducer.KindSystemNotification:
		return strings.TrimSpace(copySanitize(blk.Text()))
	case reducer.KindThinking:
		t := strings.TrimSpace(copySanitize(blk.Text()))
		if t == "" {
			return ""
		}
		return "> **Thinking**\n>\n> " + strings.ReplaceAll(t, "\n", "\n> ")
	case reducer.KindError:
		if blk.Err == nil {
			return ""
		}
		return "> **Error:** " + uikit.OneLine(render.Sanitize(blk.Err.Message))
	case reducer.KindToolCall:
		return toolMarkdown(blk.Tool, read)
	case reducer.KindInputRequest:
		if blk.Input == nil {
			return ""
		}
		return "> **Question:** " + uikit.OneLine(render.Sanitize(blk.Input.Message))
	}
	return ""
}

// toolMarkdown renders a tool call: its name and outcome, then its input
// and output in fences. Output the host keeps as resources (pages of a
// long output) is read through read up to the same clip as inline output;
// what cannot be read, or is past the clip, is a link with its size.
func toolMarkdown(t *ahpwire.ToolCallState, read refReader) string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	name := uikit.OneLine(render.Sanitize(cmp.Or(t.DisplayName, t.ToolName)))
	fmt.Fprintf(&b, "**Tool: %s** (%s)", name, render.ToolOutcome(t))
	if t.PastTenseMessage != nil && t.PastTenseMessage.Text != "" {
		b.WriteString(" — " + uikit.OneLine(render.Sanitize(t.PastTenseMessage.Text)))
	}
	if t.ToolInput != nil && t.ToolInput.Text != "" {
		b.WriteString("\n\n" + Fence(clipText(render.Sanitize(t.ToolInput.Text), maxExportToolText)))
	}
	var res resourceOutput
	for _, c := range t.Content {
		if c.Type == ahpwire.ContentResource {
			res.add(c, read)
			continue
		}
		b.WriteString(res.flush())
		if c.Text != "" {
			b.WriteString("\n\n" + Fence(clipText(render.Sanitize(c.Text), maxExportToolText)))
		}
		if c.Type == ahpwire.ContentSubagent {
			b.WriteString("\n\nSubagent chat: " + uikit.OneLine(render.Sanitize(cmp.Or(c.Title, c.Resource))))
		}
	}
	b.WriteString(res.flush())
	return b.String()
}

// resourceOutput gathers a run of resource blocks of a tool's output (the
// pages of one long output) into one clipped fence.
type resourceOutput struct {
	text    strings.Builder
	links   []string
	size    int64
	pages   int
	clipped bool
}

// add takes one resource block: its text while under the clip, else only
// its size and link.
func (r *resourceOutput) add(c ahpwire.ToolResultContent, read refReader) {
	r.pages++
	if c.SizeHint != nil {
		r.size += *c.SizeHint
	}
	if r.text.Len() < maxExportToolText && read != nil && c.URI != "" {
		if text, ok := read(c.URI); ok {
			r.text.WriteString(text)
			return
		}
	}
	if r.text.Len() >= maxExportToolText {
		r.clipped = true
		return
	}
	r.links = append(r.links, "→ "+uikit.OneLine(render.Sanitize(c.URI)))
}

// flush writes the gathered run (nothing when there is none) and resets.
func (r *resourceOutput) flush() string {
	if r.pages == 0 {
		return ""
	}
	var b strings.Builder
	if r.text.Len() > 0 {
		b.WriteString("\n\n" + Fence(clipText(render.Sanitize(r.text.String()), maxExportToolText)))
	}
	for _, l := range r.links {
		b.WriteString("\n\n" + l)
	}
	if r.clipped || r.text.Len() > maxExportToolText {
		fmt.Fprintf(&b, "\n\n(output of %d bytes in %d pages; the rest is not exported)", r.size, r.pages)
	}
	*r = resourceOutput{}
	return b.String()
}

// Fence wraps s in a code fence longer than any backtick run inside it.
func Fence(s string) string {
	f := "```"
	for strings.Contains(s, f) {
		f += "`"
	}
	return f + "\n" + strings.TrimRight(s, "\n") + "\n" + f
}

// clipText cuts s to n bytes on a rune boundary with a note.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := render.CutAtRune(s, n)
	return cut + fmt.Sprintf("\n… (%d more bytes)", len(s)-len(cut))
}

// ChatMarkdown renders a whole chat with a title line.
func ChatMarkdown(title string, msgs []*reducer.Message) string {
	return chatMarkdownRefs(title, msgs, nil)
}

// chatMarkdownRefs is chatMarkdown with content references resolved by read.
func chatMarkdownRefs(title string, msgs []*reducer.Message, read refReader) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", uikit.OneLine(render.Sanitize(cmp.Or(title, "Chat"))))
	for _, m := range msgs {
		if m == nil {
			continue
		}
		b.WriteString(messageMarkdownRefs(m, read))
		b.WriteString("\n")
	}
	return b.String()
}

// ExportDoneMsg reports where an export was written (or why it failed).
type ExportDoneMsg struct {
	Path string
	Err  error
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// ExportFileName is a file name for a chat export written at now.
func ExportFileName(title string, now time.Time) string {
	base := strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(title), "-"), "-")
	if len(base) > 40 {
		base = base[:40]
	}
	if base == "" {
		base = "chat"
	}
	return fmt.Sprintf("ahptui-%s-%s.md", base, now.UTC().Format("20060102-150405"))
}

// ExportCmd writes the markdown to dir/name (never overwriting a file) in
// a command, off the Update loop.
func ExportCmd(dir, name, markdown string) tea.Cmd {
	return func() tea.Msg {
		p := filepath.Join(dir, name)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return ExportDoneMsg{Err: fmt.Errorf("export: %w", err)}
		}
		_, werr := f.WriteString(markdown)
		cerr := f.Close()
		if werr != nil || cerr != nil {
			return ExportDoneMsg{Err: fmt.Errorf("export %s: %w", p, firstErr(werr, cerr))}
		}
		return ExportDoneMsg{Path: p}
	}
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
