package render

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/bytesize"
	"github.com/ahptui/ahptui/reducer"
)

// maxRefMarkdown is the most bytes of a fetched markdown reference laid out
// (glamour costs ~5 µs a byte); the rest is noted, not rendered.
const maxRefMarkdown = 64 << 10

// Content-type classes of a content reference.
const (
	refPlain = iota
	refMarkdown
	refDiff
	refImage
	refBinary
)

// refClass classifies a MIME type for rendering.
func refClass(contentType string) int {
	ct := strings.ToLower(strings.TrimSpace(contentType))
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = strings.TrimSpace(ct[:i])
	}
	switch {
	case ct == "text/markdown" || ct == "text/x-markdown":
		return refMarkdown
	case ct == "text/x-diff" || ct == "text/x-patch" || ct == "text/diff" || ct == "application/x-patch":
		return refDiff
	case strings.HasPrefix(ct, "image/"):
		return refImage
	case ct == "" || strings.HasPrefix(ct, "text/") || ct == "application/json" || strings.HasSuffix(ct, "+json") ||
		strings.HasSuffix(ct, "+xml") || ct == "application/xml" || ct == "application/javascript":
		return refPlain
	}
	return refBinary
}

// Fetchable reports whether a content reference of this type is text
// worth a resourceRead to show (images and other binaries show a
// placeholder). The TUI's transcript and exec/export (cli) read the same
// references.
func Fetchable(contentType string) bool {
	c := refClass(contentType)
	return c != refImage && c != refBinary
}

// contentRef renders a content-reference part: by its content type once
// fetched (markdown, text, diff), a placeholder with type and size for
// images and binaries, and a link with the loading state otherwise.
func (r *Renderer) contentRef(b *reducer.Block, width int, v ViewOpts) []string {
	ref := b.Ref
	if ref == nil {
		return nil
	}
	link := displayURI(ref.URI)
	meta := refMeta(ref.ContentType, sizeOf(ref.SizeHint))
	switch refClass(ref.ContentType) {
	case refImage:
		return hangBlock("▣ ", "image ("+meta+") "+link, width, r.styles.Tool.Link, gutter)
	case refBinary:
		return hangBlock("→ ", link+" ("+meta+", not shown)", width, r.styles.Tool.Link, gutter)
	}
	text, ok := v.resource(ref.URI)
	if !ok {
		s := link
		if meta != "" {
			s += " (" + meta + ")"
		}
		if st, loading := v.Loading[ref.URI]; loading {
			s += " — " + oneLine(st)
		}
		return hangBlock("→ ", s, width, r.styles.Tool.Link, gutter)
	}
	return r.refContent(ref, text, width)
}

// refContent lays out fetched reference text by content type.
func (r *Renderer) refContent(ref *ahpwire.ContentRef, text string, width int) []string {
	switch refClass(ref.ContentType) {
	case refMarkdown:
		more := max(len(text)-maxRefMarkdown, 0)
		src := text[:len(text)-more]
		for more > 0 && len(src) > 0 && src[len(src)-1]&0xc0 == 0x80 {
			src = src[:len(src)-1] // cut on a rune boundary
		}
		out := r.md.Lines("ref\x00"+ref.URI, src, true, width)
		if more > 0 {
			out = append(out, gutter+r.styles.Muted.Render(truncatePlain("… "+bytesize.Format(int64(more))+" more not shown", width-len(gutter))))
		}
		return out
	case refDiff:
		return r.diffText(text, width)
	}
	body, more := capLines(strings.TrimRight(text, "\n"), maxHeadLines, false)
	out := r.codeLines(body, width, TabWidth)
	if more > 0 {
		out = append(out, r.omitted(more, "more", width))
	}
	return out
}

// diffText colours a unified diff given as text, keeping the sign column
// when lines wrap.
func (r *Renderer) diffText(text string, width int) []string {
	st := r.styles.Diff
	inner := max(width-len(detailIndent)-2, 1)
	lines := strings.Split(strings.TrimRight(Sanitize(text), "\n"), "\n")
	more := max(len(lines)-2*maxHeadLines, 0)
	lines = lines[:len(lines)-more]
	var out []string
	for _, l := range lines {
		style := st.Context
		switch {
		case strings.HasPrefix(l, "@@"):
			style = st.Hunk
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			style = st.File
		case strings.HasPrefix(l, "+"):
			style = st.Add
		case strings.HasPrefix(l, "-"):
			style = st.Del
		}
		if l == "" {
			out = append(out, detailIndent+"  ")
			continue
		}
		out = appendDiffRows(out, l, inner, style)
	}
	if more > 0 {
		out = append(out, r.omitted(more, "more diff", width))
	}
	return out
}

// RefSizes returns the advertised sizes of the content references m
// shows (contentRef parts, tool inputs, file-edit sides, resource
// results), for the loader's "loading 3.0 MB" status.
func RefSizes(m *reducer.Message) map[string]int64 {
	out := map[string]int64{}
	if m == nil {
		return out
	}
	add := func(uri string, hint *int64) {
		if hint != nil && *hint >= 0 {
			out[uri] = *hint
		}
	}
	side := func(s *ahpwire.FileEditSide) {
		if s != nil {
			add(s.Content.URI, s.Content.SizeHint)
		}
	}
	for _, b := range m.Blocks.All() {
		if b.Kind == reducer.KindContentRef && b.Ref != nil {
			add(b.Ref.URI, b.Ref.SizeHint)
		}
		tc := b.Tool
		if b.Kind != reducer.KindToolCall || tc == nil {
			continue
		}
		if tc.ToolInput != nil && tc.ToolInput.Ref != nil {
			add(tc.ToolInput.Ref.URI, tc.ToolInput.Ref.SizeHint)
		}
		if tc.Edits != nil {
			for _, e := range tc.Edits.Items {
				side(e.Before)
				side(e.After)
			}
		}
		for _, c := range tc.Content {
			side(c.Before)
			side(c.After)
			if c.Type == ahpwire.ContentResource {
				add(c.URI, c.SizeHint)
			}
		}
	}
	return out
}
