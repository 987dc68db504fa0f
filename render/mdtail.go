package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// The open tail of a streaming markdown text.
//
// An open fenced code block is drawn without glamour (fenceTail). Any
// other open block is rendered by glamour without highlighting, but never
// more than about segLimit bytes of it per frame: once the open block has
// grown past segLimit, its stable beginning is cut at a line where the block
// can be split (a new list item, a table row, any line of a paragraph or
// quote) and that segment is rendered once and kept (tailSegs). A long
// table keeps its header: later segments are rendered with the header rows
// prepended, which are then dropped from the output. While the block
// streams, segments may wrap or align a little differently at their
// boundaries; when the block completes it is rendered whole, as usual.

// segLimit is the size past which the stable part of an open block is
// frozen into a segment.
const segLimit = 2048

// tailSegs are the frozen segments of the open non-fence block.
type tailSegs struct {
	start   int // offset of the open block; -1 = none
	width   int
	style   string
	kind    blockKind
	header  string // table header and delimiter rows
	bodyAt  int    // first offset that may start a segment
	listInd int    // indentation of the list's first item
	frozen  []string
	liveAt  int // start of the part rendered every frame
	scan    int // next complete line to examine
	cut     int // latest cut candidate after liveAt (-1 = none)
	inFence bool
	fc      byte
	fl      int

	liveSrc   string // last live source and its lines
	liveLines []string
}

// fenceTail incrementally draws the open fenced code block at the end of a
// streaming text.
type fenceTail struct {
	start int      // offset of the fence opener in the text; -1 = none
	width int      // width the lines were drawn for
	pos   int      // offset of the first content line not yet drawn
	lines []string // lines of the complete content lines
}

// tailLines draws the open part of a streaming text.
func (e *markdownEngine) tailLines(st *mdState, width int) []string {
	sp := st.sp.tail(st.text)
	if sp.end <= sp.start {
		return nil
	}
	if st.sp.open && st.sp.kind == kindFence && st.sp.inFence {
		return e.fenceLines(st, sp.start, width)
	}
	st.fence.start = -1
	kind := kindPara
	if st.sp.open {
		kind = st.sp.kind
	}
	g := &st.seg
	if g.start != sp.start || g.width != width || g.style != e.styles.Name || g.kind != kind {
		g.reset(st.text, sp.start, width, e.styles.Name, kind)
	}
	g.findCuts(st.text)
	if g.cut > g.liveAt && g.cut-g.liveAt >= segLimit {
		g.frozen = append(g.frozen, e.segmentLines(g, st.text[g.liveAt:g.cut], width, g.liveAt == g.start)...)
		g.liveAt, g.cut = g.cut, -1
	}
	src := st.text[g.liveAt:sp.end]
	if src != g.liveSrc || g.liveLines == nil {
		g.liveSrc, g.liveLines = src, e.segmentLines(g, src, width, g.liveAt == g.start)
	}
	if len(g.frozen) == 0 {
		return g.liveLines
	}
	out := make([]string, 0, len(g.frozen)+len(g.liveLines))
	return append(append(out, g.frozen...), g.liveLines...)
}

func (g *tailSegs) reset(text string, start, width int, style string, kind blockKind) {
	*g = tailSegs{start: start, width: width, style: style, kind: kind, liveAt: start, scan: start, cut: -1, bodyAt: start}
	first := text[start:]
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	g.listInd = indentOf(first)
}

// findCuts scans the new complete lines of the open block for places where
// it can be split.
func (g *tailSegs) findCuts(text string) {
	if g.kind == kindTable && g.header == "" {
		// Segments start after the header and delimiter rows.
		end := g.start
		for range 2 {
			i := strings.IndexByte(text[end:], '\n')
			if i < 0 {
				return // header incomplete: no cuts yet
			}
			end += i + 1
		}
		g.header, g.bodyAt = text[g.start:end], end
	}
	for g.scan < len(text) {
		nl := strings.IndexByte(text[g.scan:], '\n')
		if nl < 0 {
			break
		}
		ls, le := g.scan, g.scan+nl+1
		l := text[ls:le]
		if ls > g.liveAt && ls >= g.bodyAt && !g.inFence && g.canCut(l) {
			g.cut = ls
		}
		if g.inFence {
			g.inFence = !closesFence(l, g.fc, g.fl)
		} else if c, n, ok := fenceOpen(l); ok {
			g.inFence, g.fc, g.fl = true, c, n
		}
		g.scan = le
	}
	// One very long paragraph line: cut after a space well before the end.
	if g.kind == kindPara && !g.inFence && len(text)-g.liveAt > 2*segLimit && g.cut <= g.liveAt {
		if i := strings.LastIndexByte(text[g.liveAt:len(text)-segLimit/2], ' '); i > 0 {
			g.cut = g.liveAt + i + 1
		}
	}
}

// canCut reports whether a new segment may start with line l.
func (g *tailSegs) canCut(l string) bool {
	if isBlankLine(l) {
		return false
	}
	switch g.kind {
	case kindList:
		return isListItem(l) && indentOf(l) <= g.listInd
	case kindTable:
		return strings.HasPrefix(strings.TrimLeft(l, " \t"), "|")
	case kindQuote:
		return strings.HasPrefix(strings.TrimLeft(l, " \t"), ">")
	case kindIndent:
		return indentOf(l) >= 4
	case kindPara:
		return !isListItem(l) && !isHeading(l)
	}
	return false
}

// segmentLines renders one segment of the open block without highlighting;
// first marks the segment that starts the block. Later table segments get
// the header prepended, and its rendered rows dropped.
func (e *markdownEngine) segmentLines(g *tailSegs, src string, width int, first bool) []string {
	if first || g.kind != kindTable || g.header == "" {
		return e.renderSource(src, width, false)
	}
	lines := e.renderSource(g.header+src, width, false)
	for i, l := range lines {
		if isTableRule(l) {
			return lines[i+1:]
		}
	}
	return lines
}

// isTableRule reports whether a rendered line is glamour's header rule.
func isTableRule(l string) bool {
	s := strings.TrimSpace(ansi.Strip(l))
	return s != "" && strings.Trim(s, "─┼|-+ ") == ""
}

// codeIndent is where glamour's code blocks start (document margin plus
// code block margin).
const codeIndent = "    "

// fenceLines draws an open fenced code block starting at start: complete
// lines are drawn once and kept; the incomplete last line every frame.
func (e *markdownEngine) fenceLines(st *mdState, start, width int) []string {
	f := &st.fence
	text := st.text
	if f.start != start || f.width != width {
		f.start, f.width, f.lines = start, width, nil
		f.pos = start
		if nl := strings.IndexByte(text[start:], '\n'); nl >= 0 {
			f.pos = start + nl + 1
		} else {
			f.pos = len(text) // only the opener so far
		}
	}
	for f.pos < len(text) {
		nl := strings.IndexByte(text[f.pos:], '\n')
		if nl < 0 {
			break
		}
		f.lines = append(f.lines, e.codeLine(text[f.pos:f.pos+nl], width)...)
		f.pos += nl + 1
	}
	out := f.lines
	if f.pos < len(text) {
		out = append(out[:len(out):len(out)], e.codeLine(text[f.pos:], width)...)
	}
	return out
}

// codeLine sanitises one line of code and hard-wraps it at width.
func (e *markdownEngine) codeLine(l string, width int) []string {
	l = strings.TrimRight(Sanitize(strings.TrimSuffix(l, "\r")), " ")
	if l == "" {
		return []string{""}
	}
	w := max(width-len(codeIndent), 1)
	return styleLines(strings.Split(ansiHardwrap(l, w), "\n"), e.styles.Code, codeIndent)
}
