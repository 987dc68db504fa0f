package chat

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Sending from the composer. Enter: Model.Update → handleKey
// (tui/model_keys.go) → chatKey (tui/chat_keys.go) → chatModel.handleKey
// (update.go) → composerKey → composer.Update hands back the text
// (actionSend) → send → sendMessage → dispatch (app/commands.go).

// composerKey: the composer edits the draft; enter hands its text to send.
func (m *Model) composerKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.c.KM.Composer.Unqueue) {
		return m.Unqueue()
	}
	before := m.Composer.Height()
	comp, cmd, act := m.Composer.Update(k)
	m.Composer = comp
	if m.Composer.Height() != before {
		m.Relayout()
	}
	switch a := act.(type) {
	case actionSend:
		return tea.Batch(cmd, m.send(a.Text, false))
	case actionOpenEditor:
		return app.PrepareEditor(a.Draft)
	}
	return tea.Batch(cmd, m.afterComposerKey())
}

// afterComposerKey lets the completer follow the composer after a key.
func (m *Model) afterComposerKey() tea.Cmd {
	open := m.Extras.Completer.Open()
	cmd := m.Extras.Completer.Observe(&m.Composer)
	if open != m.Extras.Completer.Open() {
		m.Relayout()
	}
	return cmd
}

// sendComposer sends the composer's text as a steering message (steer),
// as the queued message being edited, or normally (the keys that send
// without the composer's own enter: alt+enter, enter in a read-only chat or
// while editing a queued message).
func (m *Model) sendComposer(steer bool) tea.Cmd {
	if m.Extras.readOnly {
		return uikit.Notice("this chat is read-only (a subagent's chat) — "+m.c.KM.Chat.Parent.Help().Key+" goes back", false)
	}
	text := m.Composer.Take()
	if text == "" {
		return nil
	}
	cmd := m.send(text, steer)
	m.Relayout()
	return cmd
}

// send sends text the composer gave up: a client slash command
// (slashcmds.go) unless steering, else a message (sendMessage), kept in the
// prompt history.
func (m *Model) send(text string, steer bool) tea.Cmd {
	if !steer {
		if cmd := m.clientCommandCmd(text); cmd != nil {
			return cmd
		}
	}
	m.Extras.Completer.Reset() // the popup of the sent token must not stay open
	return tea.Batch(m.c.History.Add(text), m.sendMessage(text, steer))
}

// sendMessage dispatches text with the attachments of the completions it
// still contains: a steering message (steer) or the edited queued message
// while a turn runs, else a queued message while a turn runs, else a turn.
func (m *Model) sendMessage(text string, steer bool) tea.Cmd {
	if m.URI == "" {
		return uikit.Notice("no chat open", true)
	}
	if !m.Transcript.Following() {
		m.Transcript.GotoBottom()
	}
	msg := ahpwire.UserMessage(text)
	msg.Attachments = m.Extras.Completer.TakeAttachments(text)
	editing := m.Extras.Editing
	m.Extras.Editing = ""
	running := m.AHP().ActiveTurn != nil // AHP's state, not the transcript's
	switch {
	case editing != "" && m.isSteeringEntry(editing): // 1.1 steering list
		a := &ahpwire.ChatSteeringMessageSet{SteeringMessage: ahpwire.PendingMessage{ID: editing, Message: msg}}
		return m.c.Dispatch(m.URI, a, "edit steering message")
	case editing != "" && m.isQueued(editing):
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: editing, Message: msg}
		return m.c.Dispatch(m.URI, a, "edit queued message")
	case steer && running:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingSteering, ID: m.c.NewID(), Message: msg}
		return tea.Batch(m.c.Dispatch(m.URI, a, "steer"), uikit.Notice(SteeringSentNotice+" — the agent sees it mid-turn", false))
	case running:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: m.c.NewID(), Message: msg}
		return m.c.Dispatch(m.URI, a, "queue message")
	}
	a := &ahpwire.ChatTurnStarted{TurnID: m.c.NewID(), StartedAt: m.c.Now().UTC().Format(time.RFC3339Nano), Message: msg}
	return m.c.Dispatch(m.URI, a, "send message")
}

// Unqueue removes the newest queued message.
func (m *Model) Unqueue() tea.Cmd {
	if len(m.State.Queued) == 0 {
		return nil
	}
	q := m.State.Queued[len(m.State.Queued)-1]
	a := &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: q.ID}
	return m.c.Dispatch(m.URI, a, "remove queued message")
}

func (m *Model) cancelTurn() tea.Cmd {
	cur := m.State.Current
	a := &ahpwire.ChatTurnCancelled{TurnID: cur.TurnID, Duration: ahpwire.Ptr(int64(0))} // duration is required (AHP 1.0)
	if !cur.StartedAt.IsZero() {
		a.Duration = ahpwire.Ptr(m.c.Now().Sub(cur.StartedAt).Milliseconds())
	}
	return m.c.Dispatch(m.URI, a, "cancel turn")
}
