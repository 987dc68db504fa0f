package render

import "strings"

// blockKind is the kind of the top-level markdown block being scanned.
type blockKind uint8

const (
	kindPara   blockKind = iota // paragraph, setext heading, thematic break, HTML
	kindList                    // bullet or ordered list (may contain fences)
	kindQuote                   // block quote
	kindTable                   // pipe table
	kindFence                   // fenced code block
	kindIndent                  // indented code block
)

// span is a byte range [start, end) of the markdown source.
type span struct{ start, end int }

// splitter cuts append-only markdown text into top-level blocks, looking at
// complete lines only, so that feeding a text in any number of pieces yields
// exactly the blocks of feeding it whole. Rules:
//
//   - a fenced code block (``` or ~~~, closed by the same character at least
//     as long) is one block and closes on its closing fence line; blank lines
//     and '#' lines inside it are content;
//   - an ATX heading line is a block of its own;
//   - a paragraph, quote or table ends at a blank line;
//   - a list (or an indented code block) continues after blank lines while
//     the next non-blank line is indented or is another list item, so a list
//     closes only when a non-continuation line arrives;
//   - an unindented fence or heading line interrupts any open block.
type splitter struct {
	pos   int  // start of the next line not yet scanned
	open  bool // a block is open
	start int  // start of the open block
	end   int  // end of its last non-blank line (including "\n")
	kind  blockKind
	blank bool // blank line(s) seen after the open block's content

	inFence   bool
	fenceChar byte
	fenceLen  int
}

// feed scans every complete line of text from the last position and appends
// the blocks that became complete to out.
func (s *splitter) feed(text string, out []span) []span {
	for s.pos < len(text) {
		nl := strings.IndexByte(text[s.pos:], '\n')
		if nl < 0 {
			break
		}
		ls, le := s.pos, s.pos+nl+1
		out = s.line(text[ls:le], ls, le, out)
		s.pos = le
	}
	return out
}

// tail returns the open part of text: the open block plus an incomplete
// last line. Empty when everything is complete.
func (s *splitter) tail(text string) span {
	st := s.pos
	if s.open {
		st = s.start
	}
	if st >= len(text) || isBlankLine(text[st:]) {
		return span{len(text), len(text)}
	}
	return span{st, len(text)}
}

// finish treats text as complete and appends the remaining block.
func (s *splitter) finish(text string, out []span) []span {
	out = s.feed(text, out)
	if t := s.tail(text); t.end > t.start {
		out = append(out, t)
	}
	s.open, s.blank, s.inFence = false, false, false
	s.pos = len(text)
	return out
}

func (s *splitter) emit(out []span) []span {
	if s.open {
		out = append(out, span{s.start, s.end})
	}
	s.open, s.blank = false, false
	return out
}

func (s *splitter) begin(ls, le int, k blockKind) {
	s.open, s.blank = true, false
	s.start, s.end, s.kind = ls, le, k
}

func (s *splitter) line(l string, ls, le int, out []span) []span {
	if s.inFence {
		if s.open {
			s.end = le
		}
		if closesFence(l, s.fenceChar, s.fenceLen) {
			s.inFence = false
			if s.kind == kindFence {
				out = s.emit(out)
			}
		}
		return out
	}
	if isBlankLine(l) {
		if s.open {
			if s.kind == kindList || s.kind == kindIndent {
				s.blank = true
			} else {
				out = s.emit(out)
			}
		}
		return out
	}
	ind := indentOf(l)
	fc, fl, isFence := fenceOpen(l)
	if s.open && s.blank {
		cont := (s.kind == kindList && (ind >= 2 || isListItem(l))) || (s.kind == kindIndent && ind >= 4)
		if !cont {
			out = s.emit(out)
		} else {
			s.blank = false
			s.end = le
			if isFence {
				s.inFence, s.fenceChar, s.fenceLen = true, fc, fl
			}
			return out
		}
	}
	if s.open {
		switch {
		case ind < 4 && isHeading(l) && !(s.kind == kindList && ind >= 2):
			out = s.emit(out)
			s.begin(ls, le, kindPara)
			return s.emit(out)
		case isFence && (ind == 0 || s.kind != kindList):
			out = s.emit(out)
			s.begin(ls, le, kindFence)
			s.inFence, s.fenceChar, s.fenceLen = true, fc, fl
			return out
		case isFence:
			s.inFence, s.fenceChar, s.fenceLen = true, fc, fl
		case s.kind == kindIndent && ind < 4:
			out = s.emit(out)
			return s.line(l, ls, le, out)
		case s.kind == kindPara && isListItem(l):
			s.kind = kindList
		}
		s.end = le
		return out
	}
	switch {
	case isFence && ind < 4:
		s.begin(ls, le, kindFence)
		s.inFence, s.fenceChar, s.fenceLen = true, fc, fl
	case ind >= 4:
		s.begin(ls, le, kindIndent)
	case isHeading(l):
		s.begin(ls, le, kindPara)
		out = s.emit(out)
	case isListItem(l):
		s.begin(ls, le, kindList)
	case l[ind] == '>':
		s.begin(ls, le, kindQuote)
	case l[ind] == '|':
		s.begin(ls, le, kindTable)
	default:
		s.begin(ls, le, kindPara)
	}
	return out
}

// isBlankLine reports whether a line holds only spaces, tabs and line ends.
func isBlankLine(l string) bool {
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// indentOf returns the number of leading columns (tab = 4).
func indentOf(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n
		}
	}
	return n
}

// leadingWS returns the byte length of the leading spaces and tabs.
func leadingWS(l string) int {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return i
}

// fenceOpen reports whether l opens a fenced code block and returns its
// fence character and length.
func fenceOpen(l string) (byte, int, bool) {
	r := l[leadingWS(l):]
	if len(r) < 3 || (r[0] != '`' && r[0] != '~') {
		return 0, 0, false
	}
	c := r[0]
	n := 0
	for n < len(r) && r[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if c == '`' && strings.IndexByte(r[n:], '`') >= 0 {
		return 0, 0, false
	}
	return c, n, true
}

// closesFence reports whether l closes a fence of char c and length n.
func closesFence(l string, c byte, n int) bool {
	r := l[leadingWS(l):]
	k := 0
	for k < len(r) && r[k] == c {
		k++
	}
	return k >= n && isBlankLine(r[k:])
}

// isHeading reports whether l is an ATX heading line.
func isHeading(l string) bool {
	r := l[leadingWS(l):]
	k := 0
	for k < len(r) && r[k] == '#' {
		k++
	}
	return k >= 1 && k <= 6 && (k == len(r) || r[k] == ' ' || r[k] == '\t' || r[k] == '\r' || r[k] == '\n')
}

// isListItem reports whether l starts a list item ("- ", "* ", "+ ", "1. ",
// "1) ").
func isListItem(l string) bool {
	r := l[leadingWS(l):]
	if len(r) >= 2 && (r[0] == '-' || r[0] == '*' || r[0] == '+') && (r[1] == ' ' || r[1] == '\t') {
		return true
	}
	k := 0
	for k < len(r) && k < 9 && r[k] >= '0' && r[k] <= '9' {
		k++
	}
	return k > 0 && k+1 < len(r) && (r[k] == '.' || r[k] == ')') && (r[k+1] == ' ' || r[k+1] == '\t')
}
