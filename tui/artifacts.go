package tui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// Session artifacts (AHP 1.1): F8 lists the open session's artifacts —
// every kind, known or not, by title and kind — and Enter opens one that
// names a URI through resourceRead, in a read-only viewer.

type (
	// openArtifactsMsg asks the root for the artifacts list.
	openArtifactsMsg struct{}
	// openArtifactMsg asks the root to read an artifact's URI.
	openArtifactMsg struct{ art ahpwire.SessionArtifact }
	// artifactReadMsg carries an artifact's content (or why not).
	artifactReadMsg struct {
		title, text string
		err         error
	}
)

// artifactLabel is "title (kind)", sanitised, for one line.
func artifactLabel(a ahpwire.SessionArtifact) string {
	return oneLine(render.Sanitize(firstNonEmpty(a.Title, a.URI, a.ID))) + " (" + oneLine(render.Sanitize(firstNonEmpty(a.Kind, "artifact"))) + ")"
}

// artifactList is the overlay listing the session's artifacts.
type artifactList struct {
	km   keymap.Background
	arts []ahpwire.SessionArtifact
	sel  int
}

// Update moves the selection, opens the selected artifact or closes.
func (l *artifactList) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil, resultNone
	}
	switch {
	case key.Matches(k, l.km.Up):
		l.sel = max(0, l.sel-1)
	case key.Matches(k, l.km.Down):
		l.sel = min(len(l.arts)-1, l.sel+1)
	case key.Matches(k, l.km.Open):
		a := l.arts[l.sel]
		if a.URI == "" {
			return l, notice("this artifact names nothing to open", false), resultNone
		}
		return l, emit(openArtifactMsg{art: a}), resultNone
	case key.Matches(k, l.km.Close), k.String() == "f8", k.String() == "alt+o":
		return l, nil, resultClose
	}
	return l, nil, resultNone
}

// View draws the list.
func (l *artifactList) View(st *Styles, width, _ int) string {
	inner := max(20, min(width, 90)-4)
	lines := []string{st.Dialog.Title.Render("Session artifacts")}
	for i, a := range l.arts {
		text := artifactLabel(a)
		if a.URI != "" {
			text += " — " + oneLine(render.Sanitize(a.URI))
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

// readArtifact reads an artifact's URI with resourceRead (a tea.Cmd).
func readArtifact(ctx context.Context, b Backend, a ahpwire.SessionArtifact) tea.Cmd {
	rr, ok := b.(resourceReader)
	title := firstNonEmpty(a.Title, a.URI)
	if !ok {
		return emit(artifactReadMsg{title: title, err: errNoResources})
	}
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		r, err := rr.ResourceRead(ctx, a.URI, "")
		return artifactReadMsg{title: title, text: string(r.Data), err: err}
	}
}

// textViewer shows a read-only text, scrolled with the list keys.
type textViewer struct {
	km    keymap.Background
	title string
	lines []string
	top   int
}

func newTextViewer(km keymap.Background, title, text string) *textViewer {
	return &textViewer{km: km, title: title, lines: strings.Split(render.Sanitize(text), "\n")}
}

// Update scrolls or closes.
func (v *textViewer) Update(msg tea.Msg) (overlay, tea.Cmd, overlayResult) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil, resultNone
	}
	switch {
	case key.Matches(k, v.km.Up):
		v.top = max(0, v.top-1)
	case key.Matches(k, v.km.Down):
		v.top = min(max(0, len(v.lines)-1), v.top+1)
	case key.Matches(k, v.km.Close), k.String() == "f8", k.String() == "alt+o":
		return v, nil, resultClose
	}
	return v, nil, resultNone
}

// View draws the visible lines.
func (v *textViewer) View(st *Styles, width, height int) string {
	inner := max(20, width-8)
	rows := max(3, height-8)
	out := []string{st.Dialog.Title.Render(ansi.Truncate(oneLine(render.Sanitize(v.title)), inner, "…"))}
	for i := v.top; i < len(v.lines) && i < v.top+rows; i++ {
		out = append(out, ansi.Truncate(v.lines[i], inner, "…"))
	}
	out = append(out, "", st.Dialog.Muted.Render("↑/↓ scroll · "+v.km.Close.Help().Key+" close"))
	return st.Dialog.Box.Width(inner + 4).Render(strings.Join(out, "\n"))
}

// onArtifacts handles the artifact messages of the root model.
func (m *Model) onArtifacts(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openArtifactsMsg:
		if m.session == nil || len(m.session.Artifacts) == 0 {
			return m.setNotice("this session has no artifacts", false)
		}
		m.overlays = append(m.overlays, &artifactList{km: m.c.km.Background, arts: m.session.Artifacts})
		return nil
	case openArtifactMsg:
		return readArtifact(m.c.ctx, m.c.backend, msg.art)
	case artifactReadMsg:
		if msg.err != nil {
			return m.errNotice("could not open the artifact", msg.err)
		}
		m.overlays = append(m.overlays, newTextViewer(m.c.km.Background, msg.title, msg.text))
		return nil
	}
	return nil
}
