package render

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// A finished tool call shows a preview under its pill with no key needed,
// as Claude Code and Codex do: an edit its diff (cut to a few lines), a
// command or read its first lines of output. Expanding the block (enter)
// shows everything.
const (
	previewEditLines = 8
	previewTextLines = 4
)

// toolPreview is the collapsed body of a completed tool call.
func (r *Renderer) toolPreview(tc *ahpwire.ToolCallState, width int, v ViewOpts) []string {
	if tc.Status != ahpwire.ToolCompleted {
		return nil
	}
	var out []string
	for _, c := range tc.Content {
		switch c.Type {
		case ahpwire.ContentFileEdit:
			out = append(out, r.fileEdit(&ahpwire.FileEdit{Before: c.Before, After: c.After, Diff: c.Diff}, width, v)...)
		case ahpwire.ContentText:
			if text := strings.TrimRight(c.Text, "\n"); strings.TrimSpace(text) != "" && len(out) == 0 {
				out = append(out, r.textPreview(text, width)...)
			}
		}
		if len(out) >= previewEditLines {
			break
		}
	}
	if len(out) > previewEditLines {
		more := len(out) - previewEditLines
		out = append(out[:previewEditLines:previewEditLines], r.omitted(more, "more", width)+r.styles.Muted.Render(" (enter expands)"))
	}
	return out
}

// textPreview is the first lines of a text output.
func (r *Renderer) textPreview(text string, width int) []string {
	shown, more := capLines(text, previewTextLines, false)
	out := textBlock(shown, width, r.styles.Tool.Body, detailIndent+"  ")
	if len(out) > previewTextLines {
		more += len(out) - previewTextLines
		out = out[:previewTextLines]
	}
	if more > 0 {
		out = append(out, r.omitted(more, "more", width))
	}
	return out
}

// previewURIs are the contents a collapsed completed tool call's preview
// shows (the before/after of its file edits), which NeededResources asks
// for so that the diff shows without expanding.
func previewURIs(b *reducer.Block) []string {
	tc := b.Tool
	if b.Kind != reducer.KindToolCall || tc == nil || tc.Status != ahpwire.ToolCompleted {
		return nil
	}
	var out []string
	for _, c := range tc.Content {
		if c.Type != ahpwire.ContentFileEdit {
			continue
		}
		if c.Before != nil && c.Before.Content.URI != "" {
			out = append(out, c.Before.Content.URI)
		}
		if c.After != nil && c.After.Content.URI != "" {
			out = append(out, c.After.Content.URI)
		}
	}
	return out
}
