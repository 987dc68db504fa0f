package chat

import (
	"cmp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// BackgroundSummary is the strip line of a chat's backgroundWork (shells and
// subagents that outlive a turn): how many run and their labels.
func BackgroundSummary(ws []ahpwire.BackgroundWork) string {
	if len(ws) == 0 {
		return ""
	}
	labels := make([]string, 0, len(ws))
	for _, w := range ws {
		labels = append(labels, workLabel(w))
	}
	return "⚙ " + strconv.Itoa(len(ws)) + " running: " + strings.Join(labels, " · ")
}

// workLabel is "label (shell)" or "label (subagent)", sanitised.
func workLabel(w ahpwire.BackgroundWork) string {
	return uikit.OneLine(render.Sanitize(cmp.Or(w.Label, w.Command, w.ID))) + " (" + uikit.OneLine(render.Sanitize(w.Kind)) + ")"
}

// BackgroundList is the selectable list of background work; enter on a subagent
// opens its chat.
type BackgroundList struct {
	KM   keymap.Background
	Open bool
	sel  int
}

// Update handles a key; it returns the chat to open ("" for none).
func (l *BackgroundList) Update(msg tea.KeyPressMsg, ws []ahpwire.BackgroundWork) (openChat string) {
	if len(ws) == 0 {
		l.Open = false
		return ""
	}
	l.sel = min(l.sel, len(ws)-1)
	if sel, moved := (uikit.ListKeys{Up: l.KM.Up, Down: l.KM.Down}).Move(msg, l.sel, len(ws), 0); moved {
		l.sel = sel
		return ""
	}
	switch {
	case key.Matches(msg, l.KM.Open):
		if w := ws[l.sel]; w.Kind == "subagent" && w.Chat != "" {
			l.Open = false
			return w.Chat
		}
	case key.Matches(msg, l.KM.Close):
		l.Open = false
	}
	return ""
}

// View renders the list with its hints.
func (l *BackgroundList) View(st *uikit.Styles, ws []ahpwire.BackgroundWork, width int) []string {
	if !l.Open || len(ws) == 0 {
		return nil
	}
	out := []string{st.Dialog.Label.Render("Background work")}
	for i, w := range ws {
		text := workLabel(w)
		if w.Command != "" {
			text += " — " + uikit.OneLine(render.Sanitize(w.Command))
		}
		if w.Kind == "subagent" {
			text += " — enter opens its chat"
		}
		if i == l.sel {
			out = append(out, st.Dialog.OptionSelected.Render("▸ "+text))
		} else {
			out = append(out, "  "+text)
		}
	}
	out = append(out, st.Dialog.Muted.Render(l.KM.Open.Help().Key+" open subagent · "+l.KM.Close.Help().Key+" close"))
	for i, s := range out {
		out[i] = ansi.Truncate(s, max(1, width), "…")
	}
	return out
}

// openBackground opens the list of background work and subagents.
func (m *Model) openBackground() tea.Cmd {
	if len(m.AHP().BackgroundWork) == 0 {
		return uikit.Notice("no background work is running", false)
	}
	m.Extras.bgl.Open, m.Extras.bgl.sel = true, 0
	m.Relayout()
	return nil
}
