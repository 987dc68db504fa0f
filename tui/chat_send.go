package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Sending from the composer. Enter: Model.Update → handleKey
// (model_keys.go) → chatKey (chat_keys.go) → chatModel.handleKey
// (chat_update.go) → composerKey → composer.Update hands back the text
// (actionSend) → send → sendMessage → dispatch (commands.go).

// composerKey: the composer edits the draft; enter hands its text to send.
func (m *chatModel) composerKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.c.km.Composer.Unqueue) {
		return m.unqueue()
	}
	before := m.comp.Height()
	comp, cmd, act := m.comp.Update(k)
	m.comp = comp
	if m.comp.Height() != before {
		m.relayout()
	}
	switch a := act.(type) {
	case actionSend:
		return tea.Batch(cmd, m.send(a.Text, false))
	case actionOpenEditor:
		return prepareEditor(a.Draft)
	}
	return tea.Batch(cmd, m.afterComposerKey())
}

// afterComposerKey lets the completer follow the composer after a key.
func (m *chatModel) afterComposerKey() tea.Cmd {
	open := m.x.compl.Open()
	cmd := m.x.compl.observe(&m.comp)
	if open != m.x.compl.Open() {
		m.relayout()
	}
	return cmd
}

// sendComposer sends the composer's text as a steering message (steer),
// as the queued message being edited, or normally (the keys that send
// without the composer's own enter: alt+enter, enter in a read-only chat or
// while editing a queued message).
func (m *chatModel) sendComposer(steer bool) tea.Cmd {
	if m.x.readOnly {
		return uikit.Notice("this chat is read-only (a subagent's chat) — "+m.c.km.Chat.Parent.Help().Key+" goes back", false)
	}
	text := m.comp.Take()
	if text == "" {
		return nil
	}
	cmd := m.send(text, steer)
	m.relayout()
	return cmd
}

// send sends text the composer gave up: a client slash command
// (slashcmds.go) unless steering, else a message (sendMessage), kept in the
// prompt history.
func (m *chatModel) send(text string, steer bool) tea.Cmd {
	if !steer {
		if cmd := m.clientCommandCmd(text); cmd != nil {
			return cmd
		}
	}
	m.x.compl.reset() // the popup of the sent token must not stay open
	return tea.Batch(m.c.hist.add(text), m.sendMessage(text, steer))
}

// sendMessage dispatches text with the attachments of the completions it
// still contains: a steering message (steer) or the edited queued message
// while a turn runs, else a queued message while a turn runs, else a turn.
func (m *chatModel) sendMessage(text string, steer bool) tea.Cmd {
	if m.chat == "" {
		return uikit.Notice("no chat open", true)
	}
	if !m.tr.Following() {
		m.tr.GotoBottom()
	}
	msg := ahpwire.UserMessage(text)
	msg.Attachments = m.x.compl.takeAttachments(text)
	editing := m.x.editing
	m.x.editing = ""
	switch {
	case editing != "" && m.isSteeringEntry(editing): // 1.1 steering list
		a := &ahpwire.ChatSteeringMessageSet{SteeringMessage: ahpwire.PendingMessage{ID: editing, Message: msg}}
		return m.c.dispatch(m.chat, a, "edit steering message")
	case editing != "" && m.isQueued(editing):
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: editing, Message: msg}
		return m.c.dispatch(m.chat, a, "edit queued message")
	case steer && m.state.Current != nil:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingSteering, ID: m.c.newID(), Message: msg}
		return tea.Batch(m.c.dispatch(m.chat, a, "steer"), uikit.Notice(steeringSentNotice+" — the agent sees it mid-turn", false))
	case m.state.Current != nil:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: m.c.newID(), Message: msg}
		return m.c.dispatch(m.chat, a, "queue message")
	}
	a := &ahpwire.ChatTurnStarted{TurnID: m.c.newID(), StartedAt: m.c.now().UTC().Format(time.RFC3339Nano), Message: msg}
	return m.c.dispatch(m.chat, a, "send message")
}

// unqueue removes the newest queued message.
func (m *chatModel) unqueue() tea.Cmd {
	if len(m.state.Queued) == 0 {
		return nil
	}
	q := m.state.Queued[len(m.state.Queued)-1]
	a := &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: q.ID}
	return m.c.dispatch(m.chat, a, "remove queued message")
}

func (m *chatModel) cancelTurn() tea.Cmd {
	cur := m.state.Current
	a := &ahpwire.ChatTurnCancelled{TurnID: cur.TurnID, Duration: ahpwire.Ptr(int64(0))} // duration is required (AHP 1.0)
	if !cur.StartedAt.IsZero() {
		a.Duration = ahpwire.Ptr(m.c.now().Sub(cur.StartedAt).Milliseconds())
	}
	return m.c.dispatch(m.chat, a, "cancel turn")
}
