package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// wheelLines is how far one mouse wheel step scrolls.
const wheelLines = 3

// Update handles a message routed to the chat screen (no overlay on top).
func (m *chatModel) Update(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.steerMsg(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.tr.ScrollUp(wheelLines)
			return m.maybeFetchOlder()
		case tea.MouseWheelDown:
			m.tr.ScrollDown(wheelLines)
		}
		return nil
	case frameMsg:
		m.ticking = false
		if m.dirty {
			m.syncTranscript()
			m.relayout()
		}
		return nil
	case editorReadyMsg:
		if msg.err != nil {
			return notice(msg.err.Error(), true)
		}
		return runEditor(m.c.editor, msg.path)
	case editorClosedMsg:
		if msg.err != nil {
			return tea.Batch(notice("editor: "+msg.err.Error(), true), readEditor(msg.path))
		}
		return readEditor(msg.path)
	case editorResultMsg:
		if msg.err != nil {
			return notice(msg.err.Error(), true)
		}
		m.comp.SetDraft(msg.text)
		m.relayout()
		return nil
	case turnsFetchedMsg:
		m.fetching = false
		if msg.err != nil {
			return notice(errText(msg.err), true)
		}
		return nil
	}
	if m.focus == focusComposer {
		var cmd tea.Cmd
		m.comp, cmd, _ = m.comp.Update(msg)
		return cmd
	}
	return nil
}

func (m *chatModel) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := m.steerKey(k); ok {
		return cmd
	}
	km := &m.c.km.Chat
	switch {
	case key.Matches(k, km.CancelTurn):
		if m.state.Current != nil {
			return m.cancelTurn()
		}
		if m.focus == focusTranscript && m.tr.FocusedSpan() != nil {
			m.tr.ClearFocus()
		}
		return nil
	case key.Matches(k, km.SwitchFocus):
		return m.setFocus(1 - m.focus)
	case key.Matches(k, km.CycleThinking):
		m.thinking = (m.thinking + 1) % 3
		m.tr.invalidateAll()
		return notice("thinking view: "+m.thinking.describe(), false)
	case key.Matches(k, km.Resume):
		if t := m.resumableTurn(); t != "" {
			return dispatch(m.c.ctx, m.c.backend, m.chat, &ahpwire.ChatTurnResume{TurnID: t}, "resume turn")
		}
		return notice("nothing to resume", false)
	case key.Matches(k, km.Resend):
		if e, ok := m.firstUncertain(); ok {
			return resend(m.c.ctx, m.c.backend, m.chat, e.ClientSeq)
		}
		return notice("no unconfirmed message to resend", false)
	case key.Matches(k, km.OpenPrompt):
		return emit(openPromptMsg{})
	case key.Matches(k, km.Sessions):
		return emit(backToPickerMsg{})
	}
	if m.focus == focusTranscript {
		return m.transcriptKey(k)
	}
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
		return tea.Batch(cmd, m.send(a.Text))
	case actionOpenEditor:
		return prepareEditor(a.Draft)
	}
	return tea.Batch(cmd, m.afterComposerKey())
}

func (m *chatModel) setFocus(f chatFocus) tea.Cmd {
	m.focus = f
	m.tr.SetPaneFocus(f == focusTranscript)
	if f == focusComposer {
		return m.comp.Focus()
	}
	m.comp.Blur()
	return nil
}

// send dispatches text: a new turn when idle, a queued message while a turn
// runs. The echo adds it to the transcript; until then the strip shows it.
func (m *chatModel) send(text string) tea.Cmd {
	if cmd := m.clientCommandCmd(text); cmd != nil {
		return cmd // a client slash command (slashcmds.go)
	}
	m.x.compl.reset()
	return tea.Batch(m.c.hist.add(text), m.sendMessage(text, false))
}

// unqueue removes the newest queued message.
func (m *chatModel) unqueue() tea.Cmd {
	if len(m.state.Queued) == 0 {
		return nil
	}
	q := m.state.Queued[len(m.state.Queued)-1]
	a := &ahpwire.ChatPendingMessageRemoved{Kind: ahpwire.PendingQueued, ID: q.ID}
	return dispatch(m.c.ctx, m.c.backend, m.chat, a, "remove queued message")
}

func (m *chatModel) cancelTurn() tea.Cmd {
	cur := m.state.Current
	a := &ahpwire.ChatTurnCancelled{TurnID: cur.TurnID, Duration: ahpwire.Ptr(int64(0))} // duration is required (AHP 1.0)
	if !cur.StartedAt.IsZero() {
		a.Duration = ahpwire.Ptr(m.c.now().Sub(cur.StartedAt).Milliseconds())
	}
	return dispatch(m.c.ctx, m.c.backend, m.chat, a, "cancel turn")
}

func (m *chatModel) transcriptKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.c.km.Transcript
	page := max(1, m.tr.height-1)
	switch {
	case key.Matches(k, km.Up):
		m.tr.ScrollUp(1)
	case key.Matches(k, km.Down):
		m.tr.ScrollDown(1)
	case key.Matches(k, km.PageUp):
		m.tr.ScrollUp(page)
	case key.Matches(k, km.PageDown):
		m.tr.ScrollDown(page)
	case key.Matches(k, km.HalfUp):
		m.tr.ScrollUp(max(1, m.tr.height/2))
	case key.Matches(k, km.HalfDown):
		m.tr.ScrollDown(max(1, m.tr.height/2))
	case key.Matches(k, km.Top):
		m.tr.GotoTop()
	case key.Matches(k, km.Bottom):
		m.tr.GotoBottom()
	case key.Matches(k, km.PrevBlock):
		m.tr.FocusNext(-1)
	case key.Matches(k, km.NextBlock):
		m.tr.FocusNext(+1)
	case key.Matches(k, km.ToggleBlock):
		return m.toggleFocused()
	case key.Matches(k, km.TermUp):
		return m.scrollTerminal(termStep)
	case key.Matches(k, km.TermDown):
		return m.scrollTerminal(-termStep)
	case key.Matches(k, km.Copy):
		if text := m.terminalCopy(); text != "" {
			return copyCmd(text, "terminal text", m.c.km.Transcript.Export.Help().Key)
		}
		if text := m.focusedText(false); text != "" {
			return copyCmd(text, "the block", m.c.km.Transcript.Export.Help().Key)
		}
		return notice("nothing to copy — select a block with [ or ]", false)
	case key.Matches(k, km.CopyCode):
		if text := m.focusedText(true); text != "" {
			return copyCmd(text, "code", m.c.km.Transcript.Export.Help().Key)
		}
		return notice("the focused block has no code fence", false)
	default:
		return nil
	}
	m.tr.dropHiddenFocus()
	return m.maybeFetchOlder()
}

// toggleFocused expands or collapses the focused thinking or tool block.
func (m *chatModel) toggleFocused() tea.Cmd {
	sp := m.tr.FocusedSpan()
	if sp == nil || !sp.Expandable {
		return nil
	}
	k, ok := parseSpanID(sp.ID)
	if !ok {
		return nil
	}
	m.expanded[k] = !m.expanded[k]
	m.tr.invalidate(m.tr.FocusedItem())
	m.tr.layout()
	if m.expanded[k] {
		m.tr.revealFocus() // a long block grows downwards: its header stays on screen
	}
	return nil
}

// maybeFetchOlder asks for older turns when the top of the loaded history
// is visible.
func (m *chatModel) maybeFetchOlder() tea.Cmd {
	if !m.tr.AtTop() || m.cursor == "" || m.fetching || !m.ready {
		return nil
	}
	m.fetching = true
	m.historyChanged()
	return fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor)
}

// markDirty records a state change and schedules a frame if none is due.
func (m *chatModel) markDirty() tea.Cmd {
	m.dirty = true
	if m.ticking {
		return nil
	}
	m.ticking = true
	return frameTick(m.c.frame)
}

// applyChatEnvelope applies one chat envelope to AHP's state of the chat
// and to the transcript derived from it.
func (m *chatModel) applyChatEnvelope(env ahpwire.ActionEnvelope) tea.Cmd {
	if tl, ok := env.Action.(*ahpwire.ChatTurnsLoaded); ok && env.RejectionReason == "" && m.claimsRefPage(tl) {
		return m.adoptRefPage(tl) // a re-read of long replies (chat_refturns.go)
	}
	m.noteTurnModel(env)
	var acts []reducer.Action
	m.ahp, m.state, acts = reducer.Apply(m.ahp, m.state, env)
	m.afterExtrasEnvelope(env)
	if tl, ok := env.Action.(*ahpwire.ChatTurnsLoaded); ok && env.RejectionReason == "" {
		// The page arrived (perhaps with nothing new): fetching is over.
		m.fetching, m.cursor = false, tl.TurnsNextCursor
		m.historyChanged()
	} else if len(acts) == 0 {
		return nil
	}
	return tea.Batch(m.markDirty(), m.askRefTurns(acts))
}

// applyChatSnapshot replaces the state from a chat snapshot (subscribe or
// reconnect); the transcript is rebuilt at once, rendering only what shows.
func (m *chatModel) applyChatSnapshot(cs ahpwire.ChatState) {
	// A reply the host no longer has (it restarted mid-turn) stays
	// visible, marked interrupted.
	const gone = "the host no longer has this reply (it restarted?): interrupted"
	if m.ready {
		m.state = reducer.KeepInterrupted(m.state, reducer.Reattach(m.state, cs), gone)
	} else {
		m.state = reducer.KeepInterrupted(m.state, reducer.Project(cs), gone)
	}
	m.ahp = cs
	m.ready, m.loadErr = true, ""
	m.onExtrasSnapshot(cs)
	m.cursor = cs.TurnsNextCursor
	if cs.Title != "" && m.title == "" {
		m.title = cs.Title
	}
	if id := snapshotModel(cs); id != "" {
		m.turnModel = id
	}
	m.syncTranscript()
	m.relayout()
}

// interruptReply finishes a reply still streaming when its chat cannot
// be had from the host any more: what was received stays, marked
// interrupted with reason.
func (m *chatModel) interruptReply(reason string) {
	if m.state.Current == nil {
		return
	}
	next := m.state
	next.Current = nil
	m.state = reducer.KeepInterrupted(m.state, next, reason)
	m.syncTranscript()
	m.relayout()
}

// focusedText is the focused block's text (or its first code fence).
func (m *chatModel) focusedText(code bool) string {
	b := m.focusedBlock()
	if b == nil {
		return ""
	}
	text := copyText(b)
	if b.Kind == reducer.KindContentRef && b.Ref != nil && m.c.ext != nil {
		if t, ok := m.c.ext.loader.Texts()[b.Ref.URI]; ok {
			text = render.Sanitize(t) // the page's text once loaded, not its URI
		}
	}
	if code {
		return firstFence(text)
	}
	return text
}
