package dialog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// historySearchRows is how many matches the search shows at once.
const historySearchRows = 8

// HistoryPickedMsg puts a prompt from the history into the composer.
type HistoryPickedMsg struct{ Text string }

// HistorySearch is the ctrl+r overlay: a fuzzy search of the prompt
// history, newest match first, as in a shell or Claude Code.
type HistorySearch struct {
	km      keymap.HistorySearch
	input   textinput.Model
	entries []string // oldest first
	matches []int    // indices into entries, best first
	sel     int
}

// NewHistorySearch searches entries (oldest first) for query.
func NewHistorySearch(km keymap.HistorySearch, entries []string, query string, st *uikit.Styles) *HistorySearch {
	in := uikit.NewTextInput(st)
	in.Prompt = "history › "
	in.Placeholder = "type to search your prompts"
	in.SetValue(query)
	in.CursorEnd()
	in.Focus()
	h := &HistorySearch{km: km, input: in, entries: entries}
	h.refilter()
	return h
}

// refilter matches the query against the entries: with no query every
// entry, newest first; else fuzzy matches, best first (newest on ties).
func (h *HistorySearch) refilter() {
	h.matches, h.sel = h.matches[:0], 0
	q := h.input.Value()
	if q == "" {
		for i := len(h.entries) - 1; i >= 0; i-- {
			h.matches = append(h.matches, i)
		}
		return
	}
	rev := make([]string, len(h.entries))
	for i, e := range h.entries {
		rev[len(h.entries)-1-i] = e
	}
	for _, m := range fuzzy.Find(q, rev) { // stable: newest first among equals
		h.matches = append(h.matches, len(h.entries)-1-m.Index)
	}
}

// Update: typing filters, ctrl+r/↑ older, ↓ newer, enter takes it.
func (h *HistorySearch) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if p, ok := msg.(tea.PasteMsg); ok {
			h.input.SetValue(h.input.Value() + strings.ReplaceAll(p.Content, "\n", " "))
			h.input.CursorEnd()
			h.refilter()
		}
		return h, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, h.km.Close):
		return h, nil, uikit.ResultClose
	case key.Matches(k, h.km.Accept):
		if h.sel < len(h.matches) {
			text := h.entries[h.matches[h.sel]]
			return h, uikit.Emit(HistoryPickedMsg{Text: text}), uikit.ResultClose
		}
		return h, nil, uikit.ResultClose
	case key.Matches(k, h.km.Older):
		if h.sel+1 < len(h.matches) {
			h.sel++
		}
		return h, nil, uikit.ResultNone
	case key.Matches(k, h.km.Newer):
		if h.sel > 0 {
			h.sel--
		}
		return h, nil, uikit.ResultNone
	}
	before := h.input.Value()
	var cmd tea.Cmd
	h.input, cmd = h.input.Update(k)
	if h.input.Value() != before {
		h.refilter()
	}
	return h, cmd, uikit.ResultNone
}

// View draws the query and the matches around the selected one.
func (h *HistorySearch) View(st *uikit.Styles, width, height int) string {
	inner := max(20, min(width, 100)-4)
	h.input.SetWidth(inner - ansi.StringWidth(h.input.Prompt) - 1)
	lines := []string{st.Dialog.Title.Render("Prompt history"), h.input.View(), ""}
	rows := max(1, min(historySearchRows, height-8))
	if len(h.matches) == 0 {
		msg := "no prompt matches"
		if len(h.entries) == 0 {
			msg = "no prompts yet: what you send is remembered here, per host"
		}
		lines = append(lines, st.Dialog.Muted.Render(msg))
	}
	first := max(0, h.sel-rows+1)
	for i := first; i < len(h.matches) && i < first+rows; i++ {
		text := render.SanitizeLine(strings.ReplaceAll(h.entries[h.matches[i]], "\n", " ⏎ "), inner-2)
		text = ansi.Truncate(text, inner-2, "…")
		if i == h.sel {
			lines = append(lines, st.Dialog.OptionSelected.Render("› "+text))
		} else {
			lines = append(lines, st.Dialog.Option.Render("  "+text))
		}
	}
	lines = append(lines, "")
	lines = append(lines, uikit.KeyHints(st, inner, h.km.Older.Help().Key, "older", h.km.Newer.Help().Key, "newer",
		h.km.Accept.Help().Key, "use", h.km.Close.Help().Key, "close")...)
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}
