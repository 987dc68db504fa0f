package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/reducer"
)

// blockSearchParts is everything of a block a search can find, collapsed
// or not: text, reasoning, tool names, input, output and errors (raw; the
// search sanitises what it scans).
func blockSearchParts(b *reducer.Block) []string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(b.Text())
	if t := b.Tool; t != nil {
		add(t.DisplayName)
		add(t.ToolName)
		add(t.Intention)
		if t.InvocationMessage != nil {
			add(t.InvocationMessage.Text)
		}
		if t.ToolInput != nil {
			add(t.ToolInput.Text)
		}
		if t.PartialInput != nil {
			add(*t.PartialInput)
		}
		for _, c := range t.Content {
			add(c.Text)
		}
		if t.PastTenseMessage != nil {
			add(t.PastTenseMessage.Text)
		}
		if t.Error != nil {
			add(t.Error.Message)
		}
	}
	if e := b.Err; e != nil {
		add(e.Message)
	}
	if in := b.Input; in != nil {
		add(in.Message)
		for _, q := range in.Questions {
			add(q.Title)
			add(q.Message)
		}
	}
	return parts
}

// highlightLine styles every case-insensitive occurrence of q in a
// rendered (ANSI) line; ranges are in cells.
func highlightLine(line, q string, sty lipgloss.Style) string {
	if q == "" {
		return line
	}
	plain := ansi.Strip(line)
	low, lq := strings.ToLower(plain), strings.ToLower(q)
	if len(low) != len(plain) || !strings.Contains(low, lq) {
		return line
	}
	var ranges []lipgloss.Range
	for off := 0; ; {
		i := strings.Index(low[off:], lq)
		if i < 0 {
			break
		}
		start := off + i
		end := start + len(lq)
		ranges = append(ranges, lipgloss.NewRange(ansi.StringWidth(plain[:start]), ansi.StringWidth(plain[:end]), sty))
		off = end
	}
	return lipgloss.StyleRanges(line, ranges...)
}

// lineNear returns the line of lines containing q (case-insensitive)
// nearest after the estimate frac (0..1 of the way down), wrapping to the
// top, or -1: the estimate (where in the message's text the match is) makes
// the scan short even for a message of millions of lines.
func lineNear(lines []string, q string, frac float64) int {
	lq := strings.ToLower(q)
	start := max(0, min(len(lines), int(frac*float64(len(lines))))-64)
	for k := range lines {
		i := (start + k) % len(lines)
		if strings.Contains(strings.ToLower(ansi.Strip(lines[i])), lq) {
			return i
		}
	}
	return -1
}

// reveal scrolls the transcript so that line of item sits near the top.
func (t *transcript) reveal(item, line int) {
	if item < 0 || item >= len(t.items) {
		return
	}
	t.follow = false
	t.topItem, t.topLine = item, max(0, line-2)
	if t.topLine >= len(t.ensure(item).lines) {
		t.topLine = 0
	}
	t.layout()
}
