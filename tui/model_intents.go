package tui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// handleIntent turns a child's intent into commands.
func (m *Model) handleIntent(msg tea.Msg) (tea.Cmd, bool) {
	if cmd, ok := m.artifactIntent(msg); ok {
		return cmd, true
	}
	b := m.c.backend
	switch msg := msg.(type) {
	case openSessionMsg:
		if msg.Host != "" && msg.Host != m.here() {
			return m.openOnHost(msg), true
		}
		m.open = &opening{session: msg.Session}
		m.picker.status = "opening…"
		return subscribe(m.c.ctx, b, msg.Session, 0), true
	case newSessionMsg:
		if b == nil {
			return m.setNotice("no host is connected yet", true), true
		}
		uri := "ahp-session:/" + m.c.newID()
		m.open = &opening{session: uri, created: true}
		m.picker.status = "creating session…"
		return createSession(m.c.ctx, b, uri, msg.Provider, m.c.dir), true
	case openChatMsg:
		return m.openChat(msg.Session, msg.Chat), true
	case disposeRequestMsg:
		m.overlays = append(m.overlays, newConfirm(m.c.km.Confirm,
			fmt.Sprintf("Dispose session %q? This deletes it on the host.", msg.Title), disposeConfirmedMsg{session: msg.Session}))
		return nil, true
	case disposeConfirmedMsg:
		return disposeSession(m.c.ctx, b, msg.session), true
	case refreshSessionsMsg:
		if b == nil {
			return nil, true
		}
		return listSessions(m.c.ctx, b), true
	case backToPickerMsg:
		return m.leaveChat(), true
	case openPromptMsg:
		if !m.openFirstPending(true) {
			return m.setNotice("nothing is waiting for you", false), true
		}
		return nil, true
	case toolDecisionMsg:
		return m.decideTool(msg), true
	case inputDecisionMsg:
		return m.decideInput(msg), true
	case authGiveUpMsg:
		return m.giveUpAuth(msg), true
	}
	return nil, false
}

// handleResult handles command results.
func (m *Model) handleResult(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case sessionsListedMsg:
		if msg.b != nil && msg.b != m.c.backend { // asked before a host switch
			if h := m.hostByBackend(msg.b); h != nil && msg.ev.Err == nil {
				return m.setHostSessions(h.Name, msg.ev.Result.Items), true
			}
			return nil, true
		}
		return m.handleEvent(msg.ev), true
	case sessionCreatedMsg:
		if msg.err != nil {
			m.open = nil
			m.picker.status = ""
			return m.errNotice("could not create the session", msg.err), true
		}
		return nil, true
	case subscribedMsg:
		if msg.err == nil {
			return nil, true
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
			return m.setNotice(m.chat.loadErr, true), true
		}
		return m.errNotice("could not open it", msg.err), true
	case sessionDisposedMsg:
		if msg.err != nil {
			return m.errNotice("could not dispose the session", msg.err), true
		}
		m.picker.Remove(m.here(), msg.session)
		return m.setNotice("session disposed", false), true
	case dispatchedMsg:
		if msg.err != nil {
			if t := sentText(msg.action); t != "" && m.chat != nil && msg.channel == m.chat.chat {
				m.chat.addUnsent(t, errText(msg.err))
			}
			return m.errNotice("", msg.err), true
		}
		return nil, true
	}
	return nil, false
}

// loadFailure explains a failed chat or session subscription.
func loadFailure(err error) string {
	var re *ahpwire.RPCError
	if errors.As(err, &re) && (re.Code == ahpwire.CodeSessionNotFound || re.Code == ahpwire.CodeNotFound) {
		return "this chat is gone from the host (restarted?)"
	}
	return "could not load this chat: " + oneLine(render.Sanitize(errText(err)))
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

// decideTool dispatches an approval decision.
func (m *Model) decideTool(d toolDecisionMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	var a ahpwire.Action
	if d.Result {
		a = &ahpwire.ChatToolCallResultConfirmed{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Approved: d.Approved}
	} else {
		c := &ahpwire.ChatToolCallConfirmed{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Approved: d.Approved}
		if d.Approved {
			c.Confirmed = ahpwire.ConfirmedUserAction
		} else {
			c.Reason = ahpwire.CancelDenied
			if d.Reason != "" {
				c.ReasonMessage = ahpwire.PlainPtr(d.Reason)
			}
		}
		if d.Option != nil {
			c.SelectedOptionID = d.Option.ID
		}
		a = c
	}
	what := "deny tool"
	if d.Approved {
		what = "approve tool"
	}
	return dispatch(m.c.ctx, m.c.backend, m.chat.chat, a, what)
}

// giveUpAuth fails an auth-required tool call (allowed for any client).
func (m *Model) giveUpAuth(d authGiveUpMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	a := &ahpwire.ChatToolCallComplete{TurnID: d.TurnID, ToolCallID: d.ToolCallID, Result: ahpwire.ToolCallResult{
		Success:          false,
		PastTenseMessage: ahpwire.Plain(d.Name + " was given up: authentication is not available in ahptui"),
		Error:            &ahpwire.ToolError{Message: authGiveUpMessage, Code: "auth-unavailable"},
	}}
	return dispatch(m.c.ctx, m.c.backend, m.chat.chat, a, "give up tool call")
}

// decideInput dispatches the answer to an input request.
func (m *Model) decideInput(d inputDecisionMsg) tea.Cmd {
	if m.chat == nil {
		return nil
	}
	a := &ahpwire.ChatInputCompleted{RequestID: d.RequestID, Response: d.Response}
	if len(d.Answers) > 0 {
		a.Answers = d.Answers
	}
	return dispatch(m.c.ctx, m.c.backend, m.chat.chat, a, "answer question")
}
