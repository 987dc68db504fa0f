package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
)

// Session actions from the picker (picker/actions.go): rename, archive,
// read state, dispose.

// onSessionRequest handles the session actions' messages.
func (m *Model) onSessionRequest(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case picker.RenameRequestMsg:
		m.overlays = append(m.overlays, dialog.NewRename(m.c.KM.SignIn, msg.Session, msg.Title, &m.c.Styles))
	case dialog.SessionActionMsg:
		return m.sessionAction(msg)
	case picker.DisposeRequestMsg:
		m.overlays = append(m.overlays, dialog.NewConfirm(m.c.KM.Confirm,
			fmt.Sprintf("Dispose session %q? This deletes it on the host.", msg.Title), app.DisposeConfirmedMsg{Session: msg.Session}))
	case app.DisposeConfirmedMsg:
		return app.DisposeSession(m.c.Ctx, m.c.Backend, msg.Session)
	case app.SessionDisposedMsg:
		if msg.Err != nil {
			return m.errNotice("could not dispose the session", msg.Err)
		}
		m.picker.Remove(m.here(), msg.Session)
		return m.setNotice("session disposed", false)
	}
	return nil
}

// sessionAction subscribes to a session (so the echo settles the send)
// and dispatches a session action on it. The open (or opening) session is
// subscribed already: another subscription would be one more hold that
// leaving the chat does not give back (ahpclient counts them).
func (m *Model) sessionAction(msg dialog.SessionActionMsg) tea.Cmd {
	ctx, b := m.c.Ctx, m.c.Backend
	held := (m.chat != nil && m.chat.Session == msg.Session) || (m.open != nil && m.open.session == msg.Session)
	return func() tea.Msg {
		c, cancel := app.ReqCtx(ctx)
		defer cancel()
		if !held {
			if _, err := b.Subscribe(c, msg.Session, nil); err != nil {
				return app.DispatchedMsg{Channel: msg.Session, What: msg.What, Err: fmt.Errorf("%s: %w", msg.What, err)}
			}
		}
		seq, err := b.Dispatch(c, msg.Session, msg.Action)
		if err != nil {
			err = fmt.Errorf("%s: %w", msg.What, err)
		}
		return app.DispatchedMsg{Channel: msg.Session, ClientSeq: seq, What: msg.What, Err: err}
	}
}

// markRead marks the session read when it is opened.
func (m *Model) markRead(session string) tea.Cmd {
	s, ok := m.picker.Session(session)
	if !ok || s.Status.Has(ahpwire.StatusIsRead) {
		return nil
	}
	return m.c.Dispatch(session, &ahpwire.SessionIsReadChanged{IsRead: true}, "mark read")
}
