package tui

import (
	"cmp"
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Session artifacts (AHP 1.1): F8 lists the open session's artifacts —
// every kind, known or not, by title and kind — and Enter opens one that
// names a URI through resourceRead, in a read-only viewer.

type (
	// openArtifactsMsg asks the root for the artifacts list.
	openArtifactsMsg struct{}
	// artifactReadMsg carries an artifact's content (or why not).
	artifactReadMsg struct {
		title, text string
		err         error
	}
)

// readArtifact reads an artifact's URI with resourceRead (a tea.Cmd).
func readArtifact(ctx context.Context, b Backend, a ahpwire.SessionArtifact) tea.Cmd {
	rr, ok := b.(resourceReader)
	title := cmp.Or(a.Title, a.URI)
	if !ok {
		return uikit.Emit(artifactReadMsg{title: title, err: errNoResources})
	}
	return func() tea.Msg {
		ctx, cancel := reqCtx(ctx)
		defer cancel()
		r, err := rr.ResourceRead(ctx, a.URI, "")
		return artifactReadMsg{title: title, text: string(r.Data), err: err}
	}
}

// onArtifacts handles the artifact messages of the root model.
func (m *Model) onArtifacts(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openArtifactsMsg:
		if m.session == nil || len(m.session.Artifacts) == 0 {
			return m.setNotice("this session has no artifacts", false)
		}
		m.overlays = append(m.overlays, dialog.NewArtifactList(m.c.km.Background, m.session.Artifacts))
		return nil
	case dialog.OpenArtifactMsg:
		return readArtifact(m.c.ctx, m.c.backend, msg.Art)
	case artifactReadMsg:
		if msg.err != nil {
			return m.errNotice("could not open the artifact", msg.err)
		}
		m.overlays = append(m.overlays, dialog.NewTextViewer(m.c.km.Background, msg.title, msg.text))
		return nil
	}
	return nil
}
