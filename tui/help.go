package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
)

// helpOverlay lists every enabled binding by context, generated from keymap.
type helpOverlay struct {
	groups []keymap.Group
	close  key.Binding
	toggle key.Binding
	scroll int
}

func newHelpOverlay(km keymap.KeyMap) *helpOverlay {
	return &helpOverlay{groups: km.Groups(), close: km.Help.Close, toggle: km.Global.Help}
}

// Update closes on esc/q/?/f1 and scrolls with the arrows.
func (h *helpOverlay) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, h.close, h.toggle):
			return h, nil, resultClose
		case k.String() == "down" || k.String() == "j":
			h.scroll++
		case k.String() == "up" || k.String() == "k":
			h.scroll = max(0, h.scroll-1)
		}
	}
	return h, nil, resultNone
}

// View lays the groups out in as many columns as fit.
func (h *helpOverlay) View(st *Styles, width, height int) string {
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
		cells := make([]string, len(row))
		for j, b := range row {
			cells[j] = lipgloss.NewStyle().Width(colW + 3).Render(b)
		}
		rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cells...))
	}
	body := st.Help.Title.Render("Key bindings") + "  " + st.Help.Desc.Render("(esc to close, ↑/↓ to scroll)") + "\n\n" + strings.Join(rows, "\n\n")
	lines := strings.Split(body, "\n")
	avail := max(1, height-2)
	h.scroll = min(h.scroll, max(0, len(lines)-avail))
	lines = lines[h.scroll:min(len(lines), h.scroll+avail)]
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, inner, "…")
	}
	return st.Help.Box.Width(min(width, inner+4)).Render(strings.Join(lines, "\n"))
}
