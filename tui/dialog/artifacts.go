package dialog

import (
	"cmp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// ArtifactLabel is "title (kind)", sanitised, for one line.
func ArtifactLabel(a ahpwire.SessionArtifact) string {
	return uikit.OneLine(render.Sanitize(cmp.Or(a.Title, a.URI, a.ID))) + " (" + uikit.OneLine(render.Sanitize(cmp.Or(a.Kind, "artifact"))) + ")"
}

// OpenArtifactMsg asks the root to read an artifact's URI.
type OpenArtifactMsg struct{ Art ahpwire.SessionArtifact }

// ArtifactList is the overlay listing the session's artifacts.
type ArtifactList struct {
	km   keymap.Background
	arts []ahpwire.SessionArtifact
	sel  int
}

// Update moves the selection, opens the selected artifact or closes.
func (l *ArtifactList) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil, uikit.ResultNone
	}
	if sel, moved := (uikit.ListKeys{Up: l.km.Up, Down: l.km.Down}).Move(k, l.sel, len(l.arts), 0); moved {
		l.sel = sel
		return l, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, l.km.Open):
		a := l.arts[l.sel]
		if a.URI == "" {
			return l, uikit.Notice("this artifact names nothing to open", false), uikit.ResultNone
		}
		return l, uikit.Emit(OpenArtifactMsg{Art: a}), uikit.ResultNone
	case key.Matches(k, l.km.Close), k.String() == "f8", k.String() == "alt+o":
		return l, nil, uikit.ResultClose
	}
	return l, nil, uikit.ResultNone
}

// View draws the list.
func (l *ArtifactList) View(st *uikit.Styles, width, _ int) string {
	inner := max(20, min(width, 90)-4)
	lines := []string{st.Dialog.Title.Render("Session artifacts")}
	for i, a := range l.arts {
		text := ArtifactLabel(a)
		if a.URI != "" {
			text += " — " + uikit.OneLine(render.Sanitize(a.URI))
		}
		text = ansi.Truncate(text, inner-2, "…")
		if i == l.sel {
			lines = append(lines, st.Dialog.OptionSelected.Render("▸ "+text))
		} else {
			lines = append(lines, "  "+text)
		}
	}
	lines = append(lines, "", st.Dialog.Muted.Render(l.km.Open.Help().Key+" open · "+l.km.Close.Help().Key+" close"))
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

// TextViewer shows a read-only text, wrapped to the dialog's width and
// scrolled with the list keys.
type TextViewer struct {
	km    keymap.Background
	title string
	lines []string
	top   int // first row shown (of the wrapped rows)
	// The rows of lines wrapped at wrapW columns (View; kept while the
	// width stays).
	wrapW   int
	wrapped []string
}

// NewTextViewer shows text (sanitised) under title.
func NewTextViewer(km keymap.Background, title, text string) *TextViewer {
	return &TextViewer{km: km, title: title, lines: strings.Split(render.Sanitize(text), "\n")}
}

// Update scrolls or closes.
func (v *TextViewer) Update(msg tea.Msg) (uikit.Overlay, tea.Cmd, uikit.Result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil, uikit.ResultNone
	}
	switch {
	case key.Matches(k, v.km.Up):
		v.top = max(0, v.top-1)
	case key.Matches(k, v.km.Down):
		n := len(v.lines)
		if v.wrapped != nil {
			n = len(v.wrapped)
		}
		v.top = min(max(0, n-1), v.top+1)
	case key.Matches(k, v.km.Close), k.String() == "f8", k.String() == "alt+o":
		return v, nil, uikit.ResultClose
	}
	return v, nil, uikit.ResultNone
}

// View draws the visible lines.
func (v *TextViewer) View(st *uikit.Styles, width, height int) string {
	inner := max(20, width-8)
	rows := max(3, height-8)
	out := []string{st.Dialog.Title.Render(ansi.Truncate(uikit.OneLine(render.Sanitize(v.title)), inner, "…"))}
	all := v.rows(inner)
	v.top = min(v.top, max(0, len(all)-1))
	for i := v.top; i < len(all) && i < v.top+rows; i++ {
		out = append(out, all[i])
	}
	out = append(out, "", st.Dialog.Muted.Render("↑/↓ scroll · "+v.km.Close.Help().Key+" close"))
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(out, "\n"))
}

// rows returns the text's lines wrapped at width columns: words first,
// then hard breaks for what is still wider (a long line was cut before,
// its end unreadable).
func (v *TextViewer) rows(width int) []string {
	if v.wrapped != nil && v.wrapW == width {
		return v.wrapped
	}
	out := make([]string, 0, len(v.lines))
	for _, l := range v.lines {
		if ansi.StringWidth(l) <= width {
			out = append(out, l)
			continue
		}
		for _, w := range strings.Split(ansi.Wrap(l, width, ""), "\n") {
			if ansi.StringWidth(w) > width {
				out = append(out, strings.Split(ansi.Hardwrap(w, width, true), "\n")...)
				continue
			}
			out = append(out, w)
		}
	}
	v.wrapW, v.wrapped = width, out
	return out
}

// NewArtifactList lists arts (at least one).
func NewArtifactList(km keymap.Background, arts []ahpwire.SessionArtifact) *ArtifactList {
	return &ArtifactList{km: km, arts: arts}
}
