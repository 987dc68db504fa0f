package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Opening sessions and chats: the picker's list, opening a session (on
// this host or another, model_hosts_attach.go), its chat, and back.

// onSessionsListed shows a host's sessions (asked before a host switch:
// the other host's list).
func (m *Model) onSessionsListed(msg sessionsListedMsg) tea.Cmd {
	if msg.b != nil && msg.b != m.c.backend {
		if h := m.hostByBackend(msg.b); h != nil && msg.ev.Err == nil {
			return m.setHostSessions(h.Name, msg.ev.Result.Items)
		}
		return nil
	}
	return m.handleEvent(msg.ev)
}

// openSession subscribes to a session; its snapshot opens its chat
// (model_events.go continueOpening).
func (m *Model) openSession(msg openSessionMsg) tea.Cmd {
	if msg.Host != "" && msg.Host != m.here() {
		return m.openOnHost(msg)
	}
	m.open = &opening{session: msg.Session}
	m.picker.status = "opening…"
	return subscribe(m.c.ctx, m.c.backend, msg.Session, 0)
}

// onSubscribed: a failed subscription of the session or chat being opened
// (or on screen) says why; a terminal's or changeset's goes to the side
// channels (visible_sync.go).
func (m *Model) onSubscribed(msg subscribedMsg) tea.Cmd {
	if isExtChannel(msg.channel) {
		return m.onSideChannelSubscribed(msg)
	}
	if msg.err == nil {
		return nil
	}
	if m.open != nil && m.open.session == msg.channel {
		m.open = nil
		m.picker.status = ""
	}
	if m.chat != nil && (msg.channel == m.chat.chat || msg.channel == m.chat.session) {
		// The chat stays on screen (with the user's draft); the hint
		// line says why it is stale and how to leave.
		m.chat.loadErr = loadFailure(msg.err)
		m.chat.strandOutbox(m.chat.loadErr)
		m.chat.interruptReply("the host no longer has this chat (it restarted?): interrupted")
		m.chat.ready = m.chat.ready && msg.channel == m.chat.session
		m.c.log.Warn("chat reload failed", "channel", msg.channel, "err", msg.err)
		return m.setNotice(m.chat.loadErr, true)
	}
	return m.errNotice("could not open it", msg.err)
}

// loadFailure explains a failed chat or session subscription.
func loadFailure(err error) string {
	var re *ahpwire.RPCError
	if errors.As(err, &re) && (re.Code == ahpwire.CodeSessionNotFound || re.Code == ahpwire.CodeNotFound) {
		return "this chat is gone from the host (restarted?)"
	}
	return "could not load this chat: " + uikit.OneLine(render.Sanitize(errText(err)))
}

// openChat switches to the chat screen and subscribes to the chat.
func (m *Model) openChat(session, chat string) tea.Cmd {
	title := ""
	if s, ok := m.picker.Session(session); ok {
		title = s.Title
	}
	if m.session != nil && m.session.Title != "" {
		title = m.session.Title
	}
	m.open = nil
	m.picker.status = ""
	m.chat = newChat(m.c, m.conn, session, chat, title)
	if s, ok := m.picker.Session(session); ok {
		m.chat.workDirs = s.WorkingDirectories
	}
	if m.session != nil && len(m.session.WorkingDirectories) > 0 {
		m.chat.workDirs = m.session.WorkingDirectories
	}
	if m.carry != "" {
		m.chat.comp.SetValue(m.carry)
		m.carry = ""
	}
	m.chat.SetSize(m.width, m.bodyHeight())
	m.screen = screenChat
	m.prompted = map[string]bool{}
	return tea.Batch(subscribe(m.c.ctx, m.c.backend, chat, m.c.turns), m.chat.comp.Focus(), m.markRead(session))
}

// leaveChat returns to the picker and drops the chat's subscriptions.
func (m *Model) leaveChat() tea.Cmd {
	if m.chat == nil {
		m.screen = screenPicker
		return nil
	}
	cmd := unsubscribe(m.c.ctx, m.c.backend, m.chat.chat, m.chat.session)
	m.mirror.Drop(m.chat.session)
	m.picker.clearFilter() // the list comes back whole, not as it was filtered
	m.picker.Select(m.chat.session)
	m.chat, m.session, m.screen = nil, nil, screenPicker
	m.overlays = nil
	return tea.Batch(cmd, listSessions(m.c.ctx, m.c.backend), m.picker.filter.Focus())
}
