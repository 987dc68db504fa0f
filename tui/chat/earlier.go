package chat

import (
	"github.com/ahptui/ahptui/render"
)

// earlierLine is the line shown above the oldest loaded turn while the host
// holds older ones (turnsNextCursor): they load as the user scrolls up.
func (m *Model) earlierLine(width int) string {
	text := "↑ earlier turns… (scroll up to load)"
	if m.Fetching {
		text = "↑ loading earlier turns…"
	}
	return m.c.Styles.Dialog.Muted.Render(truncateText(text, width))
}

// withEarlierLine puts the "earlier turns…" line on top of item 0 when
// the history has more, shifting the item's spans below it.
func (m *Model) withEarlierLine(i, width int, it renderedItem) renderedItem {
	if i != 0 || m.Cursor == "" {
		return it
	}
	if it.secs != nil {
		it.secs = append([]render.Section{{Lines: []string{m.earlierLine(width)}}}, it.secs...)
		for k := range it.spans {
			it.spans[k].StartSec++
			it.spans[k].EndSec++
		}
		return it
	}
	lines := make([]string, 0, len(it.lines)+1)
	it.lines = append(append(lines, m.earlierLine(width)), it.lines...)
	for k := range it.spans {
		it.spans[k].Start++
		it.spans[k].End++
	}
	return it
}

// historyChanged re-renders the first item after the paging state (cursor,
// fetching) changed.
func (m *Model) historyChanged() {
	m.Transcript.Invalidate(0)
	m.Transcript.Layout()
}

// truncateText cuts s to at most width runes.
func truncateText(s string, width int) string {
	r := []rune(s)
	if width > 0 && len(r) > width {
		return string(r[:width])
	}
	return s
}
