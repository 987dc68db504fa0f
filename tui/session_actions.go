package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/dialog"
)

// Session actions from the picker (picker_actions.go): rename, archive,
// read state, dispose.

// onSessionRequest handles the session actions' messages.
func (m *Model) onSessionRequest(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case renameRequestMsg:
		m.overlays = append(m.overlays, dialog.NewRename(m.c.km.SignIn, msg.Session, msg.Title, &m.c.styles))
	case dialog.SessionActionMsg:
		return m.sessionAction(msg)
	case disposeRequestMsg:
		m.overlays = append(m.overlays, dialog.NewConfirm(m.c.km.Confirm,
			fmt.Sprintf("Dispose session %q? This deletes it on the host.", msg.Title), disposeConfirmedMsg{session: msg.Session}))
	case disposeConfirmedMsg:
		return disposeSession(m.c.ctx, m.c.backend, msg.session)
	case sessionDisposedMsg:
		if msg.err != nil {
			return m.errNotice("could not dispose the session", msg.err)
		}
		m.picker.Remove(m.here(), msg.session)
		return m.setNotice("session disposed", false)
	}
	return nil
}

// sessionAction subscribes to a session (so the echo settles the send)
// and dispatches a session action on it.
func (m *Model) sessionAction(msg dialog.SessionActionMsg) tea.Cmd {
	ctx, b := m.c.ctx, m.c.backend
	return func() tea.Msg {
		c, cancel := reqCtx(ctx)
		defer cancel()
		if _, err := b.Subscribe(c, msg.Session, nil); err != nil {
			return dispatchedMsg{channel: msg.Session, what: msg.What, err: fmt.Errorf("%s: %w", msg.What, err)}
		}
		seq, err := b.Dispatch(c, msg.Session, msg.Action)
		if err != nil {
			err = fmt.Errorf("%s: %w", msg.What, err)
		}
		return dispatchedMsg{channel: msg.Session, clientSeq: seq, what: msg.What, err: err}
	}
}

// markRead marks the session read when it is opened.
func (m *Model) markRead(session string) tea.Cmd {
	s, ok := m.picker.Session(session)
	if !ok || s.Status.Has(ahpwire.StatusIsRead) {
		return nil
	}
	return m.c.dispatch(session, &ahpwire.SessionIsReadChanged{IsRead: true}, "mark read")
}
