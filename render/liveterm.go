package render

import (
	"bytes"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/ahptui/ahptui/ahpwire"
)

// TerminalScrollback is how many lines scrolled off a live terminal's
// screen it keeps (the full output stays in the terminal state for copy).
const TerminalScrollback = 2000

// Default size of a terminal whose state carries none.
const (
	defaultTermCols = 80
	defaultTermRows = 24
)

// LiveTerminal is the client's view of one `ahp-terminal:` channel: the
// reduced state (kept by the caller and handed in with each action) and,
// for a pty, a VT emulator fed with the output as it arrives, so colours,
// `\r` progress bars, cursor movement and clears look as they would in a
// terminal. Only the emulator's cell grid is ever drawn — each cell's text
// through [Sanitize] and its style as SGR sequences built here — so nothing
// the host sends reaches the user's terminal raw. Terminal queries (device
// attributes, status and mode reports, colour queries, in-band resize) are
// swallowed: the emulator never answers the host. Without a pty the output
// is plain text. A LiveTerminal is used by one goroutine (the UI's).
type LiveTerminal struct {
	state ahpwire.TerminalState
	pty   bool
	emu   *vt.Emulator
	rev   uint64
	clamp csiClamp
	// pending is output not yet fed to the emulator (at most maxReplay
	// bytes, from a line start when older output was skipped): the
	// emulator is fed when the terminal is drawn, at most once per frame,
	// so a flood of terminal/data actions costs bounded work per frame and
	// keys and signals are handled between them.
	pending []byte
	// pendingLines counts the line feeds in pending.
	pendingLines int
	// plain caches plainLines for revision plainRev (a frame asks for the
	// line count and then the lines: the output is split once).
	plain    []string
	plainRev uint64
}

// maxQueuedLines bounds the lines of output fed to the emulator at once:
// each line feed at the bottom of the screen costs the emulator ~80 µs
// (it scrolls the screen and the scrollback), so a flood of short lines
// is cut to its last lines (from a line start, like tailForReplay).
const maxQueuedLines = 1000

// queue adds output for the emulator, keeping the last maxReplay bytes.
func (t *LiveTerminal) queue(s string) {
	if len(t.pending)+len(s) > maxReplay {
		keep := tailForReplay(string(t.pending) + s)
		t.pending, t.pendingLines = t.pending[:0], 0
		t.clamp = csiClamp{} // the cut may fall inside a sequence
		s = keep
	}
	t.pending = append(t.pending, s...)
	t.pendingLines += strings.Count(s, "\n")
	if t.pendingLines > 2*maxQueuedLines { // trimmed by half: amortised linear
		cut, n := 0, t.pendingLines-maxQueuedLines
		for ; n > 0; n-- {
			cut += bytes.IndexByte(t.pending[cut:], '\n') + 1
		}
		t.pending = append(t.pending[:0], t.pending[cut:]...)
		t.pendingLines = maxQueuedLines
		t.clamp = csiClamp{}
	}
}

// flush feeds the queued output to the emulator, counts clamped.
func (t *LiveTerminal) flush() {
	if t.emu == nil || len(t.pending) == 0 {
		return
	}
	s, cut := frameTail(string(t.pending))
	t.pending, t.pendingLines = t.pending[:0], 0
	if cut {
		t.clamp = csiClamp{} // a sequence held from the last frame no longer continues
	}
	_, _ = t.emu.WriteString(t.clamp.filter(s))
}

// NewLiveTerminal returns the view of a terminal in state st; pty selects
// the emulator (isPty of the tool result; true when unknown).
func NewLiveTerminal(st ahpwire.TerminalState, pty bool) *LiveTerminal {
	t := &LiveTerminal{pty: pty}
	t.Reset(st)
	return t
}

// maxReplay bounds the output fed to the emulator at once (a snapshot, or
// one huge terminal/data): only the last maxReplay bytes, from a line start,
// are emulated. The scrollback keeps TerminalScrollback lines anyway, and
// the UI thread never spends seconds on one action.
const maxReplay = 256 << 10

// tailForReplay returns the last maxReplay bytes of s, starting after a
// line break when one is near.
func tailForReplay(s string) string {
	if len(s) <= maxReplay {
		return s
	}
	s = s[len(s)-maxReplay:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < 4096 {
		s = s[i+1:]
	}
	return s
}

// Reset replaces the whole state (a snapshot) and replays (the tail of)
// its output.
func (t *LiveTerminal) Reset(st ahpwire.TerminalState) {
	t.state = st
	t.rev++
	if !t.pty {
		return
	}
	t.emu = newEmulator(st)
	t.pending, t.pendingLines = t.pending[:0], 0
	t.clamp = csiClamp{}
	t.queue(tailForReplay(st.Output()))
}

// Apply records the state after action a (the caller reduced it) and feeds
// terminal/data output to the emulator; terminal/cleared and a resize start
// a fresh screen.
func (t *LiveTerminal) Apply(st ahpwire.TerminalState, a ahpwire.Action) {
	switch a := a.(type) {
	case *ahpwire.TerminalData:
		t.state = st
		t.rev++
		if t.emu != nil {
			t.queue(tailForReplay(a.Data))
		}
	case *ahpwire.TerminalResized:
		t.state = st
		t.rev++
		if t.emu != nil && a.Cols > 0 && a.Cols <= 1000 && a.Rows > 0 && a.Rows <= 500 {
			t.flush() // output before the resize is laid out at the old size
			t.emu.Resize(int(a.Cols), int(a.Rows))
		}
	case *ahpwire.TerminalCleared:
		t.Reset(st)
	default:
		t.state = st
		t.rev++
	}
}

// State returns the terminal state last handed in.
func (t *LiveTerminal) State() ahpwire.TerminalState { return t.state }

// Rev changes whenever the view may look different (cache key).
func (t *LiveTerminal) Rev() uint64 { return t.rev }

// Pty reports whether the output is emulated (false: plain text).
func (t *LiveTerminal) Pty() bool { return t.pty }

// newEmulator returns an emulator sized from st that never answers.
func newEmulator(st ahpwire.TerminalState) *vt.Emulator {
	cols, rows := defaultTermCols, defaultTermRows
	if st.Cols != nil && *st.Cols > 0 && *st.Cols <= 1000 {
		cols = int(*st.Cols)
	}
	if st.Rows != nil && *st.Rows > 0 && *st.Rows <= 500 {
		rows = int(*st.Rows)
	}
	e := vt.NewEmulator(cols, rows)
	e.SetScrollbackSize(TerminalScrollback)
	muteReplies(e)
	return e
}

// muteReplies registers handlers, tried before the emulator's own, that
// swallow every sequence the emulator would answer on its input pipe
// (nobody reads that pipe, so an answer would block the UI).
func muteReplies(e *vt.Emulator) {
	swallow := func(ansi.Params) bool { return true }
	for _, cmd := range []int{
		'c', ansi.Command('>', 0, 'c'), ansi.Command('=', 0, 'c'), // device attributes
		'n', ansi.Command('?', 0, 'n'), // status and cursor position reports
		ansi.Command(0, '$', 'p'), ansi.Command('?', '$', 'p'), // mode reports
		ansi.Command('>', 0, 'q'), // XTVERSION
		't',                       // window ops (some report sizes)
	} {
		e.RegisterCsiHandler(cmd, swallow)
	}
	// Setting in-band resize (DEC 2048) reports the size at once.
	noResizeReport := func(p ansi.Params) bool {
		for i := range p {
			if n, _, ok := p.Param(i, 0); ok && n == 2048 {
				return true
			}
		}
		return false
	}
	e.RegisterCsiHandler(ansi.Command('?', 0, 'h'), noResizeReport)
	for _, osc := range []int{4, 10, 11, 12, 52} { // colour and clipboard queries
		e.RegisterOscHandler(osc, func([]byte) bool { return true })
	}
}

// LineCount is the number of lines the terminal has to show: scrollback
// plus the screen down to its last non-blank row.
func (t *LiveTerminal) LineCount() int {
	if !t.pty {
		return len(t.plainLines())
	}
	t.flush()
	return t.emu.ScrollbackLen() + t.screenRows()
}

// screenRows is the number of screen rows down to the last non-blank one.
func (t *LiveTerminal) screenRows() int {
	e := t.emu
	for y := e.Height() - 1; y >= 0; y-- {
		for x := 0; x < e.Width(); x++ {
			if c := e.CellAt(x, y); c != nil && c.Content != "" && c.Content != " " {
				return y + 1
			}
		}
	}
	return 0
}

// Lines returns n lines starting at line from (0 = oldest), each cut to
// width display columns, styled with the terminal's own colours; styled
// false returns plain text.
func (t *LiveTerminal) Lines(from, n, width int, styled bool) []string {
	return t.LinesAt(from, n, 0, width, styled)
}

// LinesAt is Lines scrolled right: each line starts at display column col
// (the terminal viewer's horizontal scroll).
func (t *LiveTerminal) LinesAt(from, n, col, width int, styled bool) []string {
	col = max(col, 0)
	total := t.LineCount()
	from = max(0, min(from, total))
	end := min(total, from+max(n, 0))
	out := make([]string, 0, end-from)
	if !t.pty {
		pl := t.plainLines()
		for _, l := range pl[from:end] {
			if col > 0 {
				l = ansi.Cut(l, col, col+ansi.StringWidth(l))
			}
			out = append(out, truncatePlain(l, width))
		}
		return out
	}
	t.flush()
	sb := t.emu.ScrollbackLen()
	for i := from; i < end; i++ {
		var cells func(x int) *uv.Cell
		var w int
		if i < sb {
			line := t.emu.Scrollback().Line(i)
			cells, w = line.At, len(line)
		} else {
			y := i - sb
			cells = func(x int) *uv.Cell { return t.emu.CellAt(x, y) }
			w = t.emu.Width()
		}
		out = append(out, drawCells(cells, w, col, width, styled))
	}
	return out
}

// Text returns everything the terminal shows as plain text (for copying).
func (t *LiveTerminal) Text() string {
	lines := t.Lines(0, t.LineCount(), 1<<20, false)
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// plainLines splits the output of a terminal without pty into sanitised
// lines (CR LF and LF end lines; other controls show as pictures).
func (t *LiveTerminal) plainLines() []string {
	if t.plain != nil && t.plainRev == t.rev {
		return t.plain
	}
	s := SanitizeTabs(t.state.Output(), TerminalTabWidth)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		t.plain, t.plainRev = []string{}, t.rev
		return nil
	}
	t.plain, t.plainRev = strings.Split(s, "\n"), t.rev
	return t.plain
}

// drawCells renders one row of cells (at most cols cells, at most width
// display columns from display column skip on; a wide character cut by
// skip is left out). Every cell's text goes through Sanitize; styles become
// SGR sequences built from the parsed style, never copied from the input.
func drawCells(at func(x int) *uv.Cell, cols, skip, width int, styled bool) string {
	var b strings.Builder
	var run strings.Builder
	var cur uv.Style
	used := 0
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if styled && !cur.IsZero() {
			b.WriteString(cur.Styled(run.String()))
		} else {
			b.WriteString(run.String())
		}
		run.Reset()
	}
	for x := 0; x < cols; x++ {
		c := at(x)
		if c == nil {
			break
		}
		if c.Width == 0 && c.Content == "" {
			continue // the tail of a wide character
		}
		text := c.Content
		if text == "" {
			text = " "
		}
		text = Sanitize(text)
		w := max(ansi.StringWidth(text), 1)
		if skip > 0 {
			skip -= w
			if skip < 0 { // the right half of a wide character: a blank
				run.WriteString(strings.Repeat(" ", -skip))
				used, skip = -skip, 0
			}
			continue
		}
		if used+w > width {
			break
		}
		if !c.Style.Equal(&cur) {
			flush()
			cur = c.Style
		}
		run.WriteString(text)
		used += w
	}
	flush()
	return strings.TrimRight(b.String(), " ")
}
