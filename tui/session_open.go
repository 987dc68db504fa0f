package tui

import (
	"cmp"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/picker"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Opening sessions and chats: the picker's list, opening a session (on
// this host or another, model_hosts_attach.go), its chat, and back.

// onSessionsListed shows a host's sessions (asked before a host switch:
// the other host's list).
func (m *Model) onSessionsListed(msg app.SessionsListedMsg) tea.Cmd {
	if msg.Backend != nil && msg.Backend != m.c.Backend {
		if h := m.hostByBackend(msg.Backend); h != nil && msg.Event.Err == nil {
			return m.setHostSessions(h.Name, msg.Event.Result.Items)
		}
		return nil
	}
	return m.handleEvent(msg.Event)
}

// openSession subscribes to a session; its snapshot opens its chat
// (model_events.go continueOpening).
func (m *Model) openSession(msg picker.OpenSessionMsg) tea.Cmd {
	if msg.Host != "" && msg.Host != m.here() {
		return m.openOnHost(msg)
	}
	if m.open != nil && m.open.session == msg.Session {
		return nil // already opening: one subscription (ahpclient counts them)
	}
	m.open = &opening{session: msg.Session}
	m.picker.Status = "opening…"
	return app.Subscribe(m.c.Ctx, m.c.Backend, msg.Session, 0)
}

// onSubscribed: a failed subscription of the session or chat being opened
// (or on screen) says why; a terminal's or changeset's goes to the side
// channels (visible_sync.go).
func (m *Model) onSubscribed(msg app.SubscribedMsg) tea.Cmd {
	if app.IsSideChannel(msg.Channel) {
		return m.onSideChannelSubscribed(msg)
	}
	if msg.Err == nil {
		return nil
	}
	if m.open != nil && m.open.session == msg.Channel {
		m.open = nil
		m.picker.Status = ""
	}
	if m.chat != nil && (msg.Channel == m.chat.URI || msg.Channel == m.chat.Session) {
		// The chat stays on screen (with the user's draft); the hint
		// line says why it is stale and how to leave.
		m.chat.LoadErr = loadFailure(msg.Err)
		m.chat.StrandOutbox(m.chat.LoadErr)
		m.chat.InterruptReply("the host no longer has this chat (it restarted?): interrupted")
		m.chat.Ready = m.chat.Ready && msg.Channel == m.chat.Session
		m.c.Log.Warn("chat reload failed", "channel", msg.Channel, "err", msg.Err)
		return m.setNotice(m.chat.LoadErr, true)
	}
	return m.errNotice("could not open it", msg.Err)
}

// loadFailure explains a failed chat or session subscription.
func loadFailure(err error) string {
	var re *ahpwire.RPCError
	if errors.As(err, &re) && (re.Code == ahpwire.CodeSessionNotFound || re.Code == ahpwire.CodeNotFound) {
		return "this chat is gone from the host (restarted?)"
	}
	return "could not load this chat: " + uikit.OneLine(render.Sanitize(app.ErrText(err)))
}

// openChat switches to the chat screen and subscribes to the chat.
func (m *Model) openChat(session, chatURI string) tea.Cmd {
	ss := m.sessionState()
	title := ""
	if s, ok := m.picker.Session(session); ok {
		title = s.Title
	}
	if ss != nil && ss.Title != "" {
		title = ss.Title
	}
	m.open = nil
	m.picker.Status = ""
	m.chat = chat.New(m.c, m.conn, session, chatURI, title)
	if s, ok := m.picker.Session(session); ok {
		m.chat.WorkDirs = s.WorkingDirectories
	}
	if s, ok := m.picker.Session(session); ok {
		m.chat.Agent = s.Provider
	}
	if ss != nil && len(ss.WorkingDirectories) > 0 {
		m.chat.WorkDirs = ss.WorkingDirectories
	}
	if ss != nil {
		m.chat.Agent = cmp.Or(ss.Provider, m.chat.Agent)
	}
	if m.carry != "" {
		m.chat.Composer.SetValue(m.carry)
		m.carry = ""
	}
	m.chat.SetSize(m.width, m.bodyHeight())
	m.screen = screenChat
	m.prompted = map[string]bool{}
	return tea.Batch(app.Subscribe(m.c.Ctx, m.c.Backend, chatURI, m.c.Turns), m.chat.Composer.Focus(), m.markRead(session),
		m.c.Channels.FollowNotes(session)) // the session's review comments (notes.go)
}

// leaveChat returns to the picker and drops the chat's subscriptions.
func (m *Model) leaveChat() tea.Cmd {
	if m.chat == nil {
		m.screen = screenPicker
		return nil
	}
	cmd := tea.Batch(app.Unsubscribe(m.c.Ctx, m.c.Backend, m.chat.URI, m.chat.Session),
		m.c.Channels.FollowNotes(""), m.c.Channels.StopWatch()) // notes.go
	m.c.Mirror.Drop(m.chat.Session)
	m.c.Mirror.Drop(m.chat.URI)
	m.picker.ClearFilter() // the list comes back whole, not as it was filtered
	m.picker.Select(m.chat.Session)
	m.chat, m.screen = nil, screenPicker
	m.overlays = nil
	return tea.Batch(cmd, app.ListSessions(m.c.Ctx, m.c.Backend), m.picker.Filter.Focus())
}
