package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// searchHit is one block of one message that contains the query.
type searchHit struct {
	item  int    // transcript item (message index)
	block string // block id
	index int    // block index (for render.BlockKey)
	msgID string
}

// blockSearchText is everything of a block a search can find, collapsed
// or not: text, reasoning, tool names, input, output and errors.
func blockSearchText(b *reducer.Block) string {
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
	return render.Sanitize(strings.Join(parts, "\n"))
}

// searchMessages finds q (case-insensitive) in items 0..n-1 of the chat.
func searchMessages(n int, at func(int) *reducer.Message, q string) []searchHit {
	q = strings.ToLower(strings.TrimSpace(q))
	if q == "" {
		return nil
	}
	var hits []searchHit
	for i := range n {
		m := at(i)
		if m == nil {
			continue
		}
		for _, b := range m.Blocks {
			if strings.Contains(strings.ToLower(blockSearchText(b)), q) {
				hits = append(hits, searchHit{item: i, block: b.ID, index: b.Index, msgID: m.ID})
			}
		}
		for _, a := range m.Attachments {
			if strings.Contains(strings.ToLower(a.Label), q) {
				hits = append(hits, searchHit{item: i, msgID: m.ID, index: -1})
				break
			}
		}
	}
	return hits
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

// lineOf returns the first line of lines containing q (case-insensitive),
// or -1.
func lineOf(lines []string, q string) int {
	lq := strings.ToLower(q)
	for i, l := range lines {
		if strings.Contains(strings.ToLower(ansi.Strip(l)), lq) {
			return i
		}
	}
	return -1
}

// reveal scrolls the transcript so that line (of section sec) of item
// sits near the top.
func (t *transcript) reveal(item, sec, line int) {
	if item < 0 || item >= len(t.items) {
		return
	}
	t.follow = false
	if sec >= t.ensure(item).nsecs() || line >= len(t.secLines(item, sec)) {
		sec, line = 0, 0
	}
	t.setTop(tpos{item, sec, line})
	t.up(min(2, line))
	t.layout()
}

// lineOf returns the section and line of the first line of item i that
// contains q (case-insensitive), or 0, 0. Pages of a long text are laid
// out only when their source contains q.
func (t *transcript) lineOf(i int, q string) (sec, line int) {
	r := t.ensure(i)
	for s := range r.nsecs() {
		if r.secs != nil && r.secs[s].Page != nil && !r.secs[s].Page.Contains(q) {
			continue
		}
		if l := lineOf(r.sec(s), q); l >= 0 {
			return s, l
		}
	}
	return 0, 0
}
