package dialog

import (
	"cmp"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// CopyChoice is one thing /copy offers: what the list shows, the text
// copied and how the notice names it.
type CopyChoice struct {
	Label, Text, What string
}

// CopyChosenMsg asks the root to copy Text (OSC 52); What names it.
type CopyChosenMsg struct{ Text, What string }

// CodeChoice is the choice of code block n (1-based) of total: its
// language, first line and line count.
func CodeChoice(n, total int, lang, code string) CopyChoice {
	first := ""
	for _, l := range strings.Split(code, "\n") {
		if strings.TrimSpace(l) != "" {
			first = strings.TrimSpace(strings.ReplaceAll(l, "\t", " "))
			break
		}
	}
	lines := strings.Count(code, "\n") + 1
	label := fmt.Sprintf("%d  %s · %s · %d line%s", n, cmp.Or(lang, "code"), cmp.Or(first, "(blank)"), lines, plural(lines))
	return CopyChoice{Label: label, Text: code, What: fmt.Sprintf("code block %d of %d", n, total)}
}

// CopyPick is /copy's list: the last reply's code blocks and the whole
// reply; enter copies the selected one, esc closes.
type CopyPick struct {
	km    keymap.CopyPick
	items []CopyChoice
	sel   int
}

// NewCopyPick lists items (labels are sanitised here).
func NewCopyPick(km keymap.CopyPick, items []CopyChoice) *CopyPick {
	p := &CopyPick{km: km, items: items}
	for i := range p.items {
		p.items[i].Label = render.SanitizeLine(p.items[i].Label, 400)
	}
	return p
}

// Update: ↑/↓ move, enter copies, esc closes.
func (p *CopyPick) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, p.km.Close):
		return p, nil, uikit.ResultClose
	case key.Matches(k, p.km.Accept):
		if p.sel < len(p.items) {
			c := p.items[p.sel]
			return p, uikit.Emit(CopyChosenMsg{Text: c.Text, What: c.What}), uikit.ResultClose
		}
		return p, nil, uikit.ResultClose
	case key.Matches(k, p.km.Up):
		p.sel = (p.sel + len(p.items) - 1) % max(1, len(p.items))
	case key.Matches(k, p.km.Down):
		p.sel = (p.sel + 1) % max(1, len(p.items))
	}
	return p, nil, uikit.ResultNone
}

// View draws the list around the selected item.
func (p *CopyPick) View(st *uikit.Styles, width, height int) string {
	inner := max(20, min(width, 100)-4)
	lines := []string{st.Dialog.Title.Render("Copy from the last reply"), ""}
	rows := max(1, min(len(p.items), height-6))
	first := max(0, p.sel-rows+1)
	for i := first; i < len(p.items) && i < first+rows; i++ {
		text := ansi.Truncate(p.items[i].Label, inner-2, "…")
		if i == p.sel {
			lines = append(lines, st.Dialog.OptionSelected.Render("› "+text))
		} else {
			lines = append(lines, st.Dialog.Option.Render("  "+text))
		}
	}
	lines = append(lines, "")
	lines = append(lines, uikit.KeyHints(st, inner, p.km.Up.Help().Key+" "+p.km.Down.Help().Key, "move",
		p.km.Accept.Help().Key, "copy", p.km.Close.Help().Key, "close")...)
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
