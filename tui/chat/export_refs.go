package chat

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// refReader returns the text behind a content reference, false when it
// cannot be had.
type refReader func(uri string) (string, bool)

// refMarkdown exports a contentRef block: its text when read has it, else
// a link with its size.
func refMarkdown(blk *reducer.Block, read refReader) string {
	if blk.Ref == nil {
		return ""
	}
	if read != nil {
		if text, ok := read(blk.Ref.URI); ok {
			return strings.TrimRight(render.Sanitize(text), "\n")
		}
	}
	size := ""
	if blk.Ref.SizeHint != nil {
		size = fmt.Sprintf(" (%d bytes)", *blk.Ref.SizeHint)
	}
	return "→ " + uikit.OneLine(render.Sanitize(blk.Ref.URI)) + size
}

// ExportWithRefsCmd writes the chat as markdown in a command: content
// references are taken from the loader's cache (cached, a map that is
// never mutated) or read from the host there, off the Update loop, so an
// export of a chat whose long replies are stored by reference holds their
// text.
func ExportWithRefsCmd(ctx context.Context, b app.Backend, cached map[string]string, dir, name, title string, msgs []*reducer.Message) tea.Cmd {
	read := cachedOrRead(ctx, b, cached)
	return func() tea.Msg {
		return ExportCmd(dir, name, chatMarkdownRefs(title, msgs, read))()
	}
}

// CopyWithRefsCmd copies the chat as markdown in a command, content
// references resolved as for an export (a long reply by reference is
// copied as its text, not as links to its pages).
func CopyWithRefsCmd(ctx context.Context, b app.Backend, cached map[string]string, title string, msgs []*reducer.Message) tea.Cmd {
	read := cachedOrRead(ctx, b, cached)
	return func() tea.Msg {
		md := chatMarkdownRefs(title, msgs, read)
		return tea.BatchMsg{app.CopyCmd(md, "the chat as markdown", "e")}
	}
}

// cachedOrRead returns a refReader that takes content from cached (the
// loader's map, never mutated) or reads it from the host; it runs inside a
// command, never in Update.
func cachedOrRead(ctx context.Context, b app.Backend, cached map[string]string) refReader {
	read := RefSource(b, cached)
	return func(uri string) (string, bool) {
		t, err := read(ctx, uri)
		return t, err == nil
	}
}

// errRefUnreadable is refSource's answer for a reference this connection
// cannot read (no resourceRead, an inline data: URI, no data).
var errRefUnreadable = app.ErrString("content reference cannot be read")

// RefSource is the one way commands read content references in full
// (export, copy, search): from cached (the loader's map, never mutated) or
// with resourceRead, each call bounded by reqCtx within ctx. It never
// runs in Update and never adds to the loader's cache.
func RefSource(b app.Backend, cached map[string]string) func(ctx context.Context, uri string) (string, error) {
	rr, _ := b.(app.ResourceReader)
	return func(ctx context.Context, uri string) (string, error) {
		if t, ok := cached[uri]; ok {
			return t, nil
		}
		if rr == nil || strings.HasPrefix(uri, "data:") {
			return "", errRefUnreadable
		}
		c, cancel := app.ReqCtx(ctx)
		defer cancel()
		r, err := rr.ResourceRead(c, uri, "")
		if err != nil {
			return "", fmt.Errorf("read %s: %w", uri, err)
		}
		if r.Data == nil {
			return "", errRefUnreadable
		}
		return string(r.Data), nil
	}
}
