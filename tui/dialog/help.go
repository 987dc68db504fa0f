package dialog

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Help lists every enabled binding by context, generated from keymap.
type Help struct {
	groups []keymap.Group
	km     keymap.HelpOverlay
	toggle key.Binding
	scroll int
	page   int // body rows of the last View (for page keys)
}

// NewHelp lists every group of km and then extra (the client's slash
// commands); the groups titled in first (the current screen's) come first.
func NewHelp(km keymap.KeyMap, extra keymap.Group, first ...string) *Help {
	gs := km.Groups()
	var front, rest []keymap.Group
	for _, g := range gs {
		if slices.Contains(first, g.Title) {
			front = append(front, g)
		} else {
			rest = append(rest, g)
		}
	}
	groups := append(append(front, rest...), extra)
	return &Help{groups: groups, km: km.Help, toggle: km.Global.Help, page: 10}
}

// Groups are the listed groups, in order.
func (h *Help) Groups() []keymap.Group { return h.groups }

// Update closes on esc/q/?/f1 and scrolls by line or page.
func (h *Help) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, h.km.Close, h.toggle):
			return h, nil, uikit.ResultClose
		case key.Matches(k, h.km.Down):
			h.scroll++
		case key.Matches(k, h.km.Up):
			h.scroll = max(0, h.scroll-1)
		case key.Matches(k, h.km.PageDown):
			h.scroll += max(1, h.page-1)
		case key.Matches(k, h.km.PageUp):
			h.scroll = max(0, h.scroll-max(1, h.page-1))
		}
	}
	return h, nil, uikit.ResultNone
}

// View lays the groups out in as many columns as fit.
func (h *Help) View(st *uikit.Styles, width, height int) string {
	var blocks []string
	for _, g := range h.groups {
		lines := []string{st.Help.Section.Render(g.Title)}
		kw := 0
		for _, b := range g.Bindings {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
		for _, b := range g.Bindings {
			k := b.Help().Key
			lines = append(lines, st.Help.Key.Render(k)+strings.Repeat(" ", kw-ansi.StringWidth(k)+2)+st.Help.Desc.Render(b.Help().Desc))
		}
		blocks = append(blocks, strings.Join(lines, "\n"))
	}
	inner := max(20, width-4)
	colW := 0
	for _, b := range blocks {
		colW = max(colW, lipgloss.Width(b))
	}
	cols := max(1, (inner+3)/(colW+3))
	var rows []string
	for i := 0; i < len(blocks); i += cols {
		row := blocks[i:min(i+cols, len(blocks))]
		if cols == 1 {
			rows = append(rows, row[0]) // no padding: it would only be cut off
			continue
		}
		cells := make([]string, len(row))
		for j, b := range row {
			cells[j] = lipgloss.NewStyle().Width(colW + 3).Render(b)
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	lines := strings.Split(strings.Join(rows, "\n\n"), "\n")
	avail := max(1, height-4) // border, title, blank line
	h.page = avail
	h.scroll = min(h.scroll, max(0, len(lines)-avail))
	end := min(len(lines), h.scroll+avail)
	desc := "esc closes"
	if len(lines) > avail {
		desc = fmt.Sprintf("esc closes · ↑/↓ pgup/pgdn scroll · %d–%d of %d", h.scroll+1, end, len(lines))
		if 14+ansi.StringWidth(desc) > inner {
			desc = fmt.Sprintf("%d–%d of %d · ↑/↓ · esc", h.scroll+1, end, len(lines))
		}
	}
	title := st.Help.Title.Render("Key bindings") + "  " + st.Help.Desc.Render(desc)
	out := append([]string{title, ""}, lines[h.scroll:end]...)
	for i, l := range out {
		out[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Help.Box.Width(min(width, inner+4)).Render(strings.Join(out, "\n"))
}
