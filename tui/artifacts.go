package tui

import (
	"cmp"
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// artifactReadMsg carries an artifact's content (or why not).
type artifactReadMsg struct {
	title, text string
	err         error
}

// readArtifact reads an artifact's URI with resourceRead (a tea.Cmd).
func readArtifact(ctx context.Context, b app.Backend, a ahpwire.SessionArtifact) tea.Cmd {
	rr, ok := b.(app.ResourceReader)
	title := cmp.Or(a.Title, a.URI)
	if !ok {
		return uikit.Emit(artifactReadMsg{title: title, err: app.ErrNoResources})
	}
	return func() tea.Msg {
		ctx, cancel := app.ReqCtx(ctx)
		defer cancel()
		r, err := rr.ResourceRead(ctx, a.URI, "")
		return artifactReadMsg{title: title, text: string(r.Data), err: err}
	}
}

// onArtifacts handles the artifact messages of the root model.
func (m *Model) onArtifacts(msg tea.Msg) tea.Cmd {
	ss := m.sessionState()
	switch msg := msg.(type) {
	case app.OpenArtifactsMsg:
		if ss == nil || len(ss.Artifacts) == 0 {
			return m.setNotice("this session has no artifacts", false)
		}
		m.overlays = append(m.overlays, dialog.NewArtifactList(m.c.KM.Background, ss.Artifacts))
		return nil
	case dialog.OpenArtifactMsg:
		return readArtifact(m.c.Ctx, m.c.Backend, msg.Art)
	case artifactReadMsg:
		if msg.err != nil {
			return m.errNotice("could not open the artifact", msg.err)
		}
		m.overlays = append(m.overlays, dialog.NewTextViewer(m.c.KM.Background, msg.title, msg.text))
		return nil
	}
	return nil
}
