package chat

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// WheelLines is how far one mouse wheel step scrolls.
const WheelLines = 3

// Update is the chat's one router: each message type goes once to its
// handler (the root routes to it the messages of the chat's features).
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return m.HandleKey(msg)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.Transcript.ScrollUp(WheelLines)
			return m.MaybeFetchOlder()
		case tea.MouseWheelDown:
			m.Transcript.ScrollDown(WheelLines)
		}
		return nil
	case app.FrameMsg:
		m.Ticking = false
		if m.dirty {
			m.syncTranscript()
			m.Relayout()
		}
		return nil
	case app.EditorReadyMsg:
		if msg.Err != nil {
			return uikit.Notice(msg.Err.Error(), true)
		}
		return app.RunEditor(m.c.Editor, msg.Path)
	case app.EditorClosedMsg:
		if msg.Err != nil {
			return tea.Batch(uikit.Notice("editor: "+msg.Err.Error(), true), app.ReadEditor(msg.Path))
		}
		return app.ReadEditor(msg.Path)
	case app.EditorResultMsg:
		if msg.Err != nil {
			return uikit.Notice(msg.Err.Error(), true)
		}
		m.Composer.SetDraft(msg.Text)
		m.Relayout()
		return nil
	case CompletionDueMsg, CompletionResultMsg:
		return m.onCompletion(msg) // extras.go
	case SearchFoundMsg:
		return m.searchFound(msg) // searchbar.go
	case ExportDoneMsg:
		if msg.Err != nil {
			return uikit.Notice(app.ErrText(msg.Err), true)
		}
		return uikit.Notice("exported to "+msg.Path, false)
	case app.TurnsFetchedMsg:
		return m.onTurnsFetched(msg)
	}
	if m.Focus == FocusComposer {
		var cmd tea.Cmd
		m.Composer, cmd, _ = m.Composer.Update(msg)
		return cmd
	}
	return nil
}

// onTurnsFetched: a fetchTurns ended, for the whole-chat pager
// (whole.go), the search paging in history, or scrolling up.
func (m *Model) onTurnsFetched(msg app.TurnsFetchedMsg) tea.Cmd {
	if m.Extras.whole.action != wholeNone {
		return m.wholeFetched(msg)
	}
	if m.Extras.Search.Paging {
		m.Fetching = false
		if msg.Err != nil || m.Cursor == "" || m.Cursor == m.Extras.Search.pagedFrom {
			// Done, failed, or the host did not move the cursor: stop.
			m.Extras.Search.Paging = false
			return m.RunSearch(true)
		}
		m.Fetching, m.Extras.Search.pagedFrom = true, m.Cursor
		return app.FetchTurns(m.c.Ctx, m.c.Backend, m.URI, m.Cursor)
	}
	m.Fetching = false
	if msg.Err != nil {
		return uikit.Notice(app.ErrText(msg.Err), true)
	}
	return nil
}

// HandleKey: an open list or popup takes the keys (extras.go); then
// the chat's keys, in one switch; then the focused pane (transcript or
// composer). The root's chat keys come first (tui/chat_keys.go).
func (m *Model) HandleKey(k tea.KeyPressMsg) tea.Cmd {
	if m.Extras.Modal() {
		return m.listKey(k)
	}
	if m.Focus == FocusComposer && m.Extras.Completer.Open() {
		if used, it := m.Extras.Completer.Update(k); used {
			if it != nil {
				m.Extras.Completer.Accept(&m.Composer, *it)
			}
			m.Relayout()
			return nil
		}
	}
	km, tk := &m.c.KM.Chat, &m.c.KM.Transcript
	inTranscript := m.Focus == FocusTranscript
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
		return uikit.Emit(app.OpenSettingsMsg{})
	case key.Matches(k, km.Artifacts):
		return uikit.Emit(app.OpenArtifactsMsg{})
	case key.Matches(k, km.Parent):
		if m.Extras.Parent == "" {
			return uikit.Notice("this chat has no parent chat", false)
		}
		return uikit.Emit(OpenChildMsg{Chat: m.Extras.Parent})
	case inTranscript && key.Matches(k, tk.ToggleBlock):
		if uri := m.FocusedTerminal(); uri != "" && key.Matches(k, m.c.KM.Terminal.Interact) {
			return uikit.Emit(app.OpenTerminalMsg{URI: uri})
		}
		if chat := m.focusedSubagent(); chat != "" {
			return uikit.Emit(OpenChildMsg{Chat: chat, Parent: m.URI})
		}
		return m.toggleFocused()
	case inTranscript && key.Matches(k, tk.SearchNext):
		return m.stepSearch(+1)
	case inTranscript && key.Matches(k, tk.SearchPrev):
		return m.stepSearch(-1)
	case inTranscript && key.Matches(k, tk.CopyMessage):
		return m.copyMessage()
	case inTranscript && key.Matches(k, tk.CopyAll):
		return m.WholeChat(wholeCopy)
	case inTranscript && key.Matches(k, tk.Export):
		return m.WholeChat(WholeExport)
	case !inTranscript && key.Matches(k, m.c.KM.Composer.Steer):
		return m.sendComposer(true) // send.go
	case !inTranscript && key.Matches(k, m.c.KM.Composer.Send) && (m.Extras.readOnly || m.Extras.Editing != ""):
		return m.sendComposer(false)

	// The chat's own keys.
	case key.Matches(k, km.CancelTurn):
		if m.State.Current != nil {
			return m.cancelTurn()
		}
		if inTranscript && m.Transcript.FocusedSpan() != nil {
			m.Transcript.ClearFocus()
		}
		return nil
	case key.Matches(k, km.SwitchFocus):
		return m.SetFocus(1 - m.Focus)
	case key.Matches(k, km.CycleThinking):
		m.Thinking = (m.Thinking + 1) % 3
		m.Transcript.InvalidateAll()
		return uikit.Notice("thinking view: "+m.Thinking.describe(), false)
	case key.Matches(k, km.Resume):
		if t := m.ResumableTurn(); t != "" {
			return m.c.Dispatch(m.URI, &ahpwire.ChatTurnResume{TurnID: t}, "resume turn")
		}
		return uikit.Notice("nothing to resume", false)
	case key.Matches(k, km.Resend):
		if e, ok := m.firstUncertain(); ok {
			return app.Resend(m.c.Ctx, m.c.Backend, m.URI, e.ClientSeq)
		}
		return uikit.Notice("no unconfirmed message to resend", false)
	case key.Matches(k, km.OpenPrompt):
		return uikit.Emit(app.OpenPromptMsg{})
	case key.Matches(k, km.Sessions):
		return uikit.Emit(app.BackToPickerMsg{})
	}
	if inTranscript {
		return m.transcriptKey(k)
	}
	return m.composerKey(k) // send.go
}

// SetFocus moves the keys to pane f.
func (m *Model) SetFocus(f Pane) tea.Cmd {
	m.Focus = f
	m.Transcript.SetPaneFocus(f == FocusTranscript)
	if f == FocusComposer {
		return m.Composer.Focus()
	}
	m.Composer.Blur()
	return nil
}

func (m *Model) transcriptKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.c.KM.Transcript
	page := max(1, m.Transcript.Height-1)
	switch {
	case key.Matches(k, km.Up):
		m.Transcript.ScrollUp(1)
	case key.Matches(k, km.Down):
		m.Transcript.ScrollDown(1)
	case key.Matches(k, km.PageUp):
		m.Transcript.ScrollUp(page)
	case key.Matches(k, km.PageDown):
		m.Transcript.ScrollDown(page)
	case key.Matches(k, km.HalfUp):
		m.Transcript.ScrollUp(max(1, m.Transcript.Height/2))
	case key.Matches(k, km.HalfDown):
		m.Transcript.ScrollDown(max(1, m.Transcript.Height/2))
	case key.Matches(k, km.Top):
		m.Transcript.GotoTop()
	case key.Matches(k, km.Bottom):
		m.Transcript.GotoBottom()
	case key.Matches(k, km.PrevBlock):
		m.Transcript.FocusNext(-1)
	case key.Matches(k, km.NextBlock):
		m.Transcript.FocusNext(+1)
	case key.Matches(k, km.ToggleBlock):
		return m.toggleFocused()
	case key.Matches(k, km.TermUp):
		return m.scrollTerminal(TermStep)
	case key.Matches(k, km.TermDown):
		return m.scrollTerminal(-TermStep)
	case key.Matches(k, km.Copy):
		if text := m.TerminalCopy(); text != "" {
			return app.CopyCmd(text, "terminal text", m.c.KM.Transcript.Export.Help().Key)
		}
		if text := m.focusedText(); text != "" {
			return app.CopyCmd(text, "the block", m.c.KM.Transcript.Export.Help().Key)
		}
		return uikit.Notice("nothing to copy — select a block with [ or ]", false)
	case key.Matches(k, km.CopyCode):
		return m.copyFocusedCode() // copycode.go
	default:
		return nil
	}
	m.Transcript.dropHiddenFocus()
	return m.MaybeFetchOlder()
}

// toggleFocused expands or collapses the focused thinking or tool block.
func (m *Model) toggleFocused() tea.Cmd {
	sp := m.Transcript.FocusedSpan()
	if sp == nil || !sp.Expandable {
		return nil
	}
	k, ok := parseSpanID(sp.ID)
	if !ok {
		return nil
	}
	m.expanded[k] = !m.expanded[k]
	m.Transcript.Invalidate(m.Transcript.FocusedItem())
	m.Transcript.Layout()
	if m.expanded[k] {
		m.Transcript.RevealFocus() // a long block grows downwards: its header stays on screen
	}
	return nil
}

// MaybeFetchOlder asks for older turns when the top of the loaded history
// is visible.
func (m *Model) MaybeFetchOlder() tea.Cmd {
	if !m.Transcript.AtTop() || m.Cursor == "" || m.Fetching || !m.Ready {
		return nil
	}
	m.Fetching = true
	m.historyChanged()
	return app.FetchTurns(m.c.Ctx, m.c.Backend, m.URI, m.Cursor)
}

// markDirty records a state change and schedules a frame if none is due.
func (m *Model) markDirty() tea.Cmd {
	m.dirty = true
	if m.Ticking {
		return nil
	}
	m.Ticking = true
	return app.FrameTick(m.c.Frame)
}

// ClaimsEnvelope reports an envelope of the chat that is not a change of
// it: the answer to a re-read of long replies (refturns.go), which
// AdoptEnvelope takes instead of the Mirror.
func (m *Model) ClaimsEnvelope(env ahpwire.ActionEnvelope) bool {
	tl, ok := env.Action.(*ahpwire.ChatTurnsLoaded)
	return ok && env.RejectionReason == "" && env.Channel == m.URI && m.claimsRefPage(tl)
}

// AdoptEnvelope takes an envelope ClaimsEnvelope claimed.
func (m *Model) AdoptEnvelope(env ahpwire.ActionEnvelope) tea.Cmd {
	return m.adoptRefPage(env.Action.(*ahpwire.ChatTurnsLoaded))
}

// OnEnvelope moves the transcript along one envelope of the chat that the
// Mirror applied (ch: the chat's state before and after it).
func (m *Model) OnEnvelope(env ahpwire.ActionEnvelope, ch ahpstate.Change) tea.Cmd {
	m.noteTurnModel(env)
	before, after, ok := ch.Chat()
	if !ok {
		return nil // the chat's snapshot has not come yet
	}
	var acts []reducer.Action
	m.State, acts = reducer.Follow(m.State, env.Action, before, after)
	m.afterExtrasEnvelope(env)
	if tl, ok := env.Action.(*ahpwire.ChatTurnsLoaded); ok && env.RejectionReason == "" {
		// The page arrived (perhaps with nothing new): fetching is over.
		m.Fetching, m.Cursor = false, tl.TurnsNextCursor
		m.historyChanged()
	} else if len(acts) == 0 {
		return nil
	}
	return tea.Batch(m.markDirty(), m.askRefTurns(acts))
}

// OnSnapshot rebuilds the transcript from a chat snapshot the Mirror
// loaded (ch; on subscribe or reconnect), rendering only what shows.
func (m *Model) OnSnapshot(ch ahpstate.Change) {
	_, cs, ok := ch.Chat()
	if !ok {
		return
	}
	// A reply the host no longer has (it restarted mid-turn) stays
	// visible, marked interrupted.
	const gone = "the host no longer has this reply (it restarted?): interrupted"
	if m.Ready {
		m.State = reducer.KeepInterrupted(m.State, reducer.Reattach(m.State, cs), gone)
	} else {
		m.State = reducer.KeepInterrupted(m.State, reducer.Project(cs), gone)
	}
	m.Ready = true
	if m.ended != nil {
		m.State = reducer.Reduce(m.State, *m.ended) // the session stays ended (ended.go)
	} else {
		m.LoadErr = ""
	}
	m.onExtrasSnapshot(cs)
	m.Cursor = cs.TurnsNextCursor
	if cs.Title != "" && m.Title == "" {
		m.Title = cs.Title
	}
	if id := snapshotModel(cs); id != "" {
		m.turnModel = id
	}
	m.syncTranscript()
	m.Relayout()
}

// InterruptReply finishes a reply still streaming when its chat cannot
// be had from the host any more: what was received stays, marked
// interrupted with reason.
func (m *Model) InterruptReply(reason string) {
	if m.State.Current == nil {
		return
	}
	next := m.State
	next.Current = nil
	m.State = reducer.KeepInterrupted(m.State, next, reason)
	m.syncTranscript()
	m.Relayout()
}

// focusedText is the focused block's text (what y copies).
func (m *Model) focusedText() string {
	b := m.focusedBlock()
	if b == nil {
		return ""
	}
	text := copyText(b)
	if b.Kind == reducer.KindContentRef && b.Ref != nil && m.c.Channels != nil {
		if t, ok := m.c.Channels.Loader.Texts()[b.Ref.URI]; ok {
			text = render.Sanitize(t) // the page's text once loaded, not its URI
		}
	}
	return text
}
