package chat

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

// HighlightLine styles every case-insensitive occurrence of q in a
// rendered (ANSI) line; ranges are in cells.
func HighlightLine(line, q string, sty lipgloss.Style) string {
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

// LineNear returns the line of lines containing q (case-insensitive)
// nearest after the estimate frac (0..1 of the way down), wrapping to the
// top, or -1: the estimate (where in the message's text the match is) makes
// the scan short even for a message of millions of lines.
func LineNear(lines []string, q string, frac float64) int {
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

// reveal scrolls the transcript so that line (of section sec) of item
// sits near the top.
func (t *Transcript) reveal(item, sec, line int) {
	if item < 0 || item >= len(t.Items) {
		return
	}
	t.follow = false
	if sec >= t.ensure(item).nsecs() || line >= len(t.SecLines(item, sec)) {
		sec, line = 0, 0
	}
	t.setTop(tpos{item, sec, line})
	t.up(min(2, line))
	t.Layout()
}

// LineNear is lineNear for item i, by section: the estimate frac picks
// the section by the size of the text each holds (a page's source, the
// other sections' shown text) and the line in it; the scan goes on through
// the following sections, wrapping to the top. Pages whose source does not
// contain q are skipped without being laid out. It returns 0, 0 when no
// line shows q.
func (t *Transcript) LineNear(i int, q string, frac float64) (sec, line int) {
	r := t.ensure(i)
	if r.secs == nil {
		return 0, max(0, LineNear(r.lines, q, frac))
	}
	n := len(r.secs)
	w, total := make([]int, n), 0
	for s, sc := range r.secs {
		if sc.Page != nil {
			w[s] = sc.Page.Size()
		} else {
			for _, l := range sc.Lines {
				w[s] += len(ansi.Strip(l))
			}
		}
		total += w[s]
	}
	target := int(frac * float64(total))
	start, within := 0, 0.0
	for s, acc := 0, 0; s < n; s++ {
		if acc+w[s] > target || s == n-1 {
			start, within = s, float64(target-acc)/float64(max(1, w[s]))
			break
		}
		acc += w[s]
	}
	lq := strings.ToLower(q)
	match := func(lines []string, from, to int) int {
		for k := from; k < to; k++ {
			if strings.Contains(strings.ToLower(ansi.Strip(lines[k])), lq) {
				return k
			}
		}
		return -1
	}
	for k := 0; k <= n; k++ {
		s := (start + k) % n
		if r.secs[s].Page != nil && !r.secs[s].Page.Contains(q) {
			continue
		}
		lines := r.sec(s)
		from, to := 0, len(lines)
		switch {
		case k == 0:
			from = max(0, min(len(lines), int(within*float64(len(lines))))-64)
		case k == n:
			to = max(0, min(len(lines), int(within*float64(len(lines))))-64)
		}
		if l := match(lines, from, to); l >= 0 {
			return s, l
		}
	}
	return 0, 0
}
