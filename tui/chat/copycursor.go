package chat

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Y copies the code block under the cursor: of the focused block's code
// blocks, the first the window shows (the nearest when none is on
// screen); with no block focused, the first code block on screen. Each code block is found in the block's rendered lines by its
// first and last lines of code (the screen shows tabs as spaces and may
// highlight, wrap or mark them: lines are compared by their words). Y
// again with nothing moved copies the next one.

// codeExtent is where a code block's lines are on screen (ok false: not
// found in the rendered lines).
type codeExtent struct {
	from, to tpos
	ok       bool
}

// copyFocusedCode copies the code block under the cursor.
func (m *Model) copyFocusedCode() tea.Cmd {
	b := m.focusedBlock()
	if b == nil {
		if cmd := m.copyShownCode(); cmd != nil {
			return cmd
		}
		return uikit.Notice("no code block on screen ([ and ] move the cursor to a block)", false)
	}
	code := fences(rawCopyText(b))
	if len(code) == 0 {
		return uikit.Notice("the block under the cursor has no code block", false)
	}
	t := &m.Transcript
	sp := t.FocusedSpan()
	top := t.top()
	i := 0
	if sp != nil && sp.ID == m.codeFor && top == m.codeTop {
		i = (m.codeAt + 1) % len(code) // Y again: the next one
	} else if sp != nil {
		i = t.codeUnderCursor(t.fItem, sp, code)
	}
	if sp != nil {
		m.codeFor, m.codeAt, m.codeTop = sp.ID, i, top
	}
	what := "the code block"
	if len(code) > 1 {
		what = fmt.Sprintf("code block %d of %d (Y again: the next)", i+1, len(code))
	}
	return app.CopyCmd(copySanitize(code[i].Code), what, m.c.KM.Transcript.Export.Help().Key)
}

// copyShownCode copies the first code block the window shows (nil when
// it shows none).
func (m *Model) copyShownCode() tea.Cmd {
	t := &m.Transcript
	first, last := t.VisibleItems()
	for i := first; i <= last; i++ {
		spans := t.ensure(i).spans
		for j := range spans {
			_, b := m.blockAt(spans[j].ID)
			if b == nil {
				continue
			}
			code := fences(rawCopyText(b))
			if len(code) == 0 {
				continue
			}
			if k := t.shownCode(i, &spans[j], code); k >= 0 {
				what := "the code block on screen"
				if len(code) > 1 {
					what = fmt.Sprintf("code block %d of %d of the block on screen", k+1, len(code))
				}
				return app.CopyCmd(copySanitize(code[k].Code), what, m.c.KM.Transcript.Export.Help().Key)
			}
		}
	}
	return nil
}

// codeUnderCursor picks the code block of span sp (item) the window
// shows first; with none on screen, the last one above the window, else
// the first.
func (t *Transcript) codeUnderCursor(item int, sp *blockSpan, code []CodeBlock) int {
	if k := t.shownCode(item, sp, code); k >= 0 {
		return k
	}
	best := 0
	for k, e := range t.locateCode(item, sp, code) {
		if e.ok && before(e.to, t.top()) {
			best = k
		}
	}
	return best
}

// shownCode is the first code block of span sp (item) the window shows
// (-1 when none).
func (t *Transcript) shownCode(item int, sp *blockSpan, code []CodeBlock) int {
	ext := t.locateCode(item, sp, code)
	type run struct{ sec, from, to int }
	var shown []run
	t.window(func(i, sec int, _ []string, from, to int) {
		if i == item {
			shown = append(shown, run{sec, from, to})
		}
	})
	for k, e := range ext {
		if !e.ok {
			continue
		}
		for _, r := range shown {
			// e overlaps [r.from, r.to) of section r.sec
			if !before(e.to, tpos{item, r.sec, r.from}) && before(e.from, tpos{item, r.sec, r.to}) {
				return k
			}
		}
	}
	return -1
}

// maxCodeScan bounds the lines Y reads to find code blocks: past it (a
// long reply laid out in pages) only the sections around the window are
// read, so no page far from it is laid out.
const maxCodeScan = 4000

// locateCode finds each code block's first and last lines of code in the
// rendered lines of span sp, in order.
func (t *Transcript) locateCode(item int, sp *blockSpan, code []CodeBlock) []codeExtent {
	r := t.ensure(item)
	lo, hi, n := sp.StartSec, min(sp.EndSec, r.nsecs()-1), 0
	for s := lo; s <= hi && n <= maxCodeScan; s++ {
		n += r.secLen(s)
	}
	if n > maxCodeScan {
		first, last := hi+1, lo-1
		t.window(func(i, sec int, _ []string, _, _ int) {
			if i == item {
				first, last = min(first, sec), max(last, sec)
			}
		})
		lo, hi = max(lo, first-1), min(hi, last+1)
	}
	var lines []tpos
	var text []string
	for s := lo; s <= hi; s++ {
		sec := t.SecLines(item, s)
		from, to := 0, len(sec)
		if s == sp.StartSec {
			from = min(sp.Start, to)
		}
		if s == sp.EndSec {
			to = min(sp.End, to)
		}
		for l := from; l < to; l++ {
			lines = append(lines, tpos{item, s, l})
			text = append(text, strings.TrimLeft(words(ansi.Strip(sec[l])), "▌▎▏│┃ ")) // a gutter marks the focused block
		}
	}
	out := make([]codeExtent, len(code))
	at := 0
	for k, c := range code {
		first, last := edgeLines(c.Code)
		if first == "" {
			continue
		}
		i := findLine(text, at, first)
		if i < 0 {
			continue
		}
		j := i
		if last != first {
			if e := findLine(text, i+1, last); e >= 0 {
				j = e
			}
		}
		out[k] = codeExtent{from: lines[i], to: lines[j], ok: true}
		at = j + 1
	}
	return out
}

// edgeLines are the first and last non-blank lines of code, as words.
func edgeLines(code string) (first, last string) {
	for _, l := range strings.Split(code, "\n") {
		if w := words(render.Sanitize(strings.ReplaceAll(l, "\t", " "))); w != "" {
			if first == "" {
				first = w
			}
			last = w
		}
	}
	return first, last
}

// findLine is the first index from at whose line shows the start of want
// (a wrapped line shows only its start; a marker may come before it).
func findLine(text []string, at int, want string) int {
	head := want
	if r := []rune(head); len(r) > 24 {
		head = string(r[:24])
	}
	for i := at; i < len(text); i++ {
		if l := text[i]; l != "" && (strings.Contains(l, head) || (len(l) >= min(len(want), 12) && strings.HasPrefix(want, l))) {
			return i
		}
	}
	return -1
}

// words is s with runs of white space made one space, trimmed.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }
