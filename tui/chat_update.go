package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// wheelLines is how far one mouse wheel step scrolls.
const wheelLines = 3

// Update is the chat's one router: each message type goes once to its
// handler (the root routes to it the messages of the chat's features).
func (m *chatModel) Update(msg tea.Msg) tea.Cmd {
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
			return uikit.Notice(msg.err.Error(), true)
		}
		return runEditor(m.c.editor, msg.path)
	case editorClosedMsg:
		if msg.err != nil {
			return tea.Batch(uikit.Notice("editor: "+msg.err.Error(), true), readEditor(msg.path))
		}
		return readEditor(msg.path)
	case editorResultMsg:
		if msg.err != nil {
			return uikit.Notice(msg.err.Error(), true)
		}
		m.comp.SetDraft(msg.text)
		m.relayout()
		return nil
	case completionDueMsg, completionResultMsg:
		return m.onCompletion(msg) // chat_extras.go
	case searchFoundMsg:
		return m.searchFound(msg) // chat_search.go
	case exportDoneMsg:
		if msg.err != nil {
			return uikit.Notice(errText(msg.err), true)
		}
		return uikit.Notice("exported to "+msg.path, false)
	case turnsFetchedMsg:
		return m.onTurnsFetched(msg)
	}
	if m.focus == focusComposer {
		var cmd tea.Cmd
		m.comp, cmd, _ = m.comp.Update(msg)
		return cmd
	}
	return nil
}

// onTurnsFetched: a fetchTurns ended, for the whole-chat pager
// (chat_whole.go), the search paging in history, or scrolling up.
func (m *chatModel) onTurnsFetched(msg turnsFetchedMsg) tea.Cmd {
	if m.x.whole.action != wholeNone {
		return m.wholeFetched(msg)
	}
	if m.x.search.paging {
		m.fetching = false
		if msg.err != nil || m.cursor == "" || m.cursor == m.x.search.pagedFrom {
			// Done, failed, or the host did not move the cursor: stop.
			m.x.search.paging = false
			return m.runSearch(true)
		}
		m.fetching, m.x.search.pagedFrom = true, m.cursor
		return fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor)
	}
	m.fetching = false
	if msg.err != nil {
		return uikit.Notice(errText(msg.err), true)
	}
	return nil
}

// handleKey: an open list or popup takes the keys (chat_extras.go); then
// the chat's keys, in one switch; then the focused pane (transcript or
// composer). The root's chat keys come first (chat_keys.go).
func (m *chatModel) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if m.x.modal() {
		return m.listKey(k)
	}
	if m.focus == focusComposer && m.x.compl.Open() {
		if used, it := m.x.compl.Update(k); used {
			if it != nil {
				m.x.compl.accept(&m.comp, *it)
			}
			m.relayout()
			return nil
		}
	}
	km, tk := &m.c.km.Chat, &m.c.km.Transcript
	inTranscript := m.focus == focusTranscript
	switch {
	// The chat's features: search, queue, background work, settings,
	// artifacts, subagents, terminals, copy and export, steering.
	case key.Matches(k, km.Search) || (inTranscript && key.Matches(k, tk.Search)):
		return m.openSearch()
	case key.Matches(k, km.Queue):
		return m.openQueue() // queue.go
	case key.Matches(k, km.Background):
		return m.openBackground() // background.go
	case key.Matches(k, km.Settings):
		return uikit.Emit(openSettingsMsg{})
	case key.Matches(k, km.Artifacts):
		return uikit.Emit(openArtifactsMsg{})
	case key.Matches(k, km.Parent):
		if m.x.parent == "" {
			return uikit.Notice("this chat has no parent chat", false)
		}
		return uikit.Emit(openChildMsg{chat: m.x.parent})
	case inTranscript && key.Matches(k, tk.ToggleBlock):
		if uri := m.focusedTerminal(); uri != "" && key.Matches(k, m.c.km.Terminal.Interact) {
			return uikit.Emit(openTerminalMsg{uri: uri})
		}
		if chat := m.focusedSubagent(); chat != "" {
			return uikit.Emit(openChildMsg{chat: chat, parent: m.chat})
		}
		return m.toggleFocused()
	case inTranscript && key.Matches(k, tk.SearchNext):
		return m.stepSearch(+1)
	case inTranscript && key.Matches(k, tk.SearchPrev):
		return m.stepSearch(-1)
	case inTranscript && key.Matches(k, tk.CopyMessage):
		return m.copyMessage()
	case inTranscript && key.Matches(k, tk.CopyAll):
		return m.wholeChat(wholeCopy)
	case inTranscript && key.Matches(k, tk.Export):
		return m.wholeChat(wholeExport)
	case !inTranscript && key.Matches(k, m.c.km.Composer.Steer):
		return m.sendComposer(true) // chat_send.go
	case !inTranscript && key.Matches(k, m.c.km.Composer.Send) && (m.x.readOnly || m.x.editing != ""):
		return m.sendComposer(false)

	// The chat's own keys.
	case key.Matches(k, km.CancelTurn):
		if m.state.Current != nil {
			return m.cancelTurn()
		}
		if inTranscript && m.tr.FocusedSpan() != nil {
			m.tr.ClearFocus()
		}
		return nil
	case key.Matches(k, km.SwitchFocus):
		return m.setFocus(1 - m.focus)
	case key.Matches(k, km.CycleThinking):
		m.thinking = (m.thinking + 1) % 3
		m.tr.invalidateAll()
		return uikit.Notice("thinking view: "+m.thinking.describe(), false)
	case key.Matches(k, km.Resume):
		if t := m.resumableTurn(); t != "" {
			return m.c.dispatch(m.chat, &ahpwire.ChatTurnResume{TurnID: t}, "resume turn")
		}
		return uikit.Notice("nothing to resume", false)
	case key.Matches(k, km.Resend):
		if e, ok := m.firstUncertain(); ok {
			return resend(m.c.ctx, m.c.backend, m.chat, e.ClientSeq)
		}
		return uikit.Notice("no unconfirmed message to resend", false)
	case key.Matches(k, km.OpenPrompt):
		return uikit.Emit(openPromptMsg{})
	case key.Matches(k, km.Sessions):
		return uikit.Emit(backToPickerMsg{})
	}
	if inTranscript {
		return m.transcriptKey(k)
	}
	return m.composerKey(k) // chat_send.go
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
		return uikit.Notice("nothing to copy — select a block with [ or ]", false)
	case key.Matches(k, km.CopyCode):
		if text := m.focusedText(true); text != "" {
			return copyCmd(text, "code", m.c.km.Transcript.Export.Help().Key)
		}
		return uikit.Notice("the focused block has no code fence", false)
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
