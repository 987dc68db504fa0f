package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
)

// chatExtras is the chat's state for completions, steering and the queue
// list, background work and subagents, and search.
type chatExtras struct {
	compl    completer
	queue    queueList
	bgl      bgList
	search   searchBar
	whole    wholePager // paging older turns in for copy-all / export
	editing  string     // id of the queued message being edited in the composer
	parent   string     // the parent chat when this chat is a subagent's
	readOnly bool       // interactivity "read-only": the composer cannot send
	prefix   string     // the host's terminal command prefix ("" = none)
	refs     refTurns   // long finished replies re-read by reference (chat_refturns.go)
}

// modal reports whether a bar or list of the extras takes the keys.
func (x *chatExtras) modal() bool {
	return x.search.typing || x.queue.open || x.bgl.open
}

// featureSource is implemented by backends that know the host's composer
// features (*ahpclient.Client).
type featureSource interface{ HostFeatures() ahpclient.HostFeatures }

// newChatExtras builds the extras of a chat.
func newChatExtras(c *common, chat string) chatExtras {
	var f ahpclient.HostFeatures
	if fs, ok := c.backend.(featureSource); ok {
		f = fs.HostFeatures()
	}
	in := newTextInput(&c.styles)
	in.Prompt = "search › "
	in.Placeholder = "text in the whole chat (collapsed blocks too)"
	return chatExtras{
		compl:  newCompleter(c.km.Completion, chat, f.CompletionTriggerCharacters, c.backend),
		queue:  queueList{km: c.km.Queue},
		bgl:    bgList{km: c.km.Background},
		search: searchBar{in: in},
		prefix: f.TerminalCommandPrefix,
	}
}

// onSnapshot takes what the extras need from a chat snapshot.
func (x *chatExtras) onSnapshot(cs ahpwire.ChatState) {
	x.readOnly = cs.Interactivity == ahpwire.InteractivityReadOnly
	if cs.ParentChat != "" && x.parent == "" {
		x.parent = cs.ParentChat
	}
}

// onExtrasSnapshot applies a chat snapshot to the extras; a read-only
// chat says so in the composer.
func (m *chatModel) onExtrasSnapshot(cs ahpwire.ChatState) {
	m.x.onSnapshot(cs)
	if m.x.readOnly {
		m.comp.ta.Placeholder = "read-only: a subagent's chat (" + m.c.km.Chat.Parent.Help().Key + " back to the parent)"
	}
}

// afterExtrasEnvelope re-lays out the chat when the background work strip
// may have changed.
func (m *chatModel) afterExtrasEnvelope(env ahpwire.ActionEnvelope) {
	switch env.Action.(type) {
	case *ahpwire.ChatBackgroundWorkSet, *ahpwire.ChatBackgroundWorkRemoved:
		m.relayout()
	}
}

// openSettingsMsg asks the root for the session settings form.
type openSettingsMsg struct{}

// openChildMsg asks the root to open another chat of the session (a
// subagent's, or back to the parent); parent is set on the new chat.
type openChildMsg struct {
	chat   string
	parent string
}

// steerMsg handles the extras' own messages; ok reports whether msg was one.
func (m *chatModel) steerMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case searchFoundMsg:
		return m.searchFound(msg), true
	case completionDueMsg:
		if msg.chat != m.chat {
			return nil, true
		}
		return m.x.compl.due(m.c.ctx, msg, &m.comp), true
	case completionResultMsg:
		if msg.chat == m.chat {
			if msg.err != nil {
				m.c.log.Debug("completions failed", "err", msg.err)
			}
			m.x.compl.result(msg)
			m.relayout()
		}
		return nil, true
	case exportDoneMsg:
		if msg.err != nil {
			return notice(errText(msg.err), true), true
		}
		return notice("exported to "+msg.path, false), true
	case turnsFetchedMsg:
		if m.x.whole.action != wholeNone {
			return m.wholeFetched(msg), true
		}
		if !m.x.search.paging {
			return nil, false
		}
		m.fetching = false
		if msg.err != nil || m.cursor == "" || m.cursor == m.x.search.pagedFrom {
			// Done, failed, or the host did not move the cursor: stop.
			m.x.search.paging = false
			return m.runSearch(true), true
		}
		m.fetching, m.x.search.pagedFrom = true, m.cursor
		return fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor), true
	}
	return nil, false
}

// steerKey handles the keys of the open lists and popups and of the new
// chat features before the chat's own keys; ok reports whether it did.
func (m *chatModel) steerKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	km := &m.c.km
	switch {
	case m.x.search.typing:
		return m.searchKey(k), true
	case m.x.queue.open:
		items, steering := m.pendingItems()
		in := m.x.queue.Update(k, items, steering)
		m.relayout()
		var cmd tea.Cmd
		if in.action != nil {
			cmd = dispatch(m.c.ctx, m.c.backend, m.chat, in.action, "edit the queue")
		}
		if in.edit != nil {
			m.x.editing = in.edit.ID
			m.comp.SetDraft(in.edit.Text)
			m.relayout()
			cmd = tea.Batch(cmd, m.setFocus(focusComposer), notice("editing a queued message — enter saves it in place", false))
		}
		return cmd, true
	case m.x.bgl.open:
		if chat := m.x.bgl.Update(k, m.ahp.BackgroundWork); chat != "" {
			m.relayout()
			return emit(openChildMsg{chat: chat, parent: m.chat}), true
		}
		m.relayout()
		return nil, true
	case m.focus == focusComposer && m.x.compl.Open():
		if used, it := m.x.compl.Update(k); used {
			if it != nil {
				m.x.compl.accept(&m.comp, *it)
			}
			m.relayout()
			return nil, true
		}
	}
	switch {
	case key.Matches(k, km.Chat.Search) || (m.focus == focusTranscript && key.Matches(k, km.Transcript.Search)):
		return m.openSearch(), true
	case key.Matches(k, km.Chat.Queue):
		if items, _ := m.pendingItems(); len(items) == 0 {
			return notice("no queued messages", false), true
		}
		m.x.queue.open, m.x.queue.sel = true, 0
		m.relayout()
		return nil, true
	case key.Matches(k, km.Chat.Background):
		if len(m.ahp.BackgroundWork) == 0 {
			return notice("no background work is running", false), true
		}
		m.x.bgl.open, m.x.bgl.sel = true, 0
		m.relayout()
		return nil, true
	case key.Matches(k, km.Chat.Settings):
		return emit(openSettingsMsg{}), true
	case key.Matches(k, km.Chat.Artifacts):
		return emit(openArtifactsMsg{}), true
	case key.Matches(k, km.Chat.Parent):
		if m.x.parent == "" {
			return notice("this chat has no parent chat", false), true
		}
		return emit(openChildMsg{chat: m.x.parent}), true
	case m.focus == focusTranscript && key.Matches(k, km.Transcript.ToggleBlock):
		if uri := m.focusedTerminal(); uri != "" && key.Matches(k, km.Terminal.Interact) {
			return emit(openTerminalMsg{uri: uri}), true
		}
		if chat := m.focusedSubagent(); chat != "" {
			return emit(openChildMsg{chat: chat, parent: m.chat}), true
		}
	case m.focus == focusTranscript:
		return m.transcriptExtraKey(k)
	case key.Matches(k, km.Composer.Steer):
		return m.sendComposer(true), true
	case key.Matches(k, km.Composer.Send) && (m.x.readOnly || m.x.editing != ""):
		return m.sendComposer(false), true
	}
	return nil, false
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
// as the queued message being edited, or normally.
func (m *chatModel) sendComposer(steer bool) tea.Cmd {
	if m.x.readOnly {
		return notice("this chat is read-only (a subagent's chat) — "+m.c.km.Chat.Parent.Help().Key+" goes back", false)
	}
	text := m.comp.Expanded()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	if cmd := m.clientCommandCmd(text); cmd != nil && !steer {
		m.comp.Take()
		m.relayout()
		return cmd // a client slash command (slashcmds.go)
	}
	m.x.compl.reset() // the popup of the sent token must not stay open
	m.comp.pushHistory(m.comp.ta.Value())
	m.comp.ta.Reset()
	m.comp.pastes, m.comp.nPaste = map[int]string{}, 0
	m.comp.hIdx = len(m.comp.history)
	m.relayout()
	return tea.Batch(m.c.hist.add(text), m.sendMessage(text, steer))
}

// sendMessage dispatches text with the attachments of the completions it
// still contains: a steering message (steer) or the edited queued message
// while a turn runs, else a queued message while a turn runs, else a turn.
func (m *chatModel) sendMessage(text string, steer bool) tea.Cmd {
	if m.chat == "" {
		return notice("no chat open", true)
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
		return dispatch(m.c.ctx, m.c.backend, m.chat, a, "edit steering message")
	case editing != "" && m.isQueued(editing):
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: editing, Message: msg}
		return dispatch(m.c.ctx, m.c.backend, m.chat, a, "edit queued message")
	case steer && m.state.Current != nil:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingSteering, ID: m.c.newID(), Message: msg}
		return tea.Batch(dispatch(m.c.ctx, m.c.backend, m.chat, a, "steer"), notice(steeringSentNotice+" — the agent sees it mid-turn", false))
	case m.state.Current != nil:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: m.c.newID(), Message: msg}
		return dispatch(m.c.ctx, m.c.backend, m.chat, a, "queue message")
	}
	a := &ahpwire.ChatTurnStarted{TurnID: m.c.newID(), StartedAt: m.c.now().UTC().Format(time.RFC3339Nano), Message: msg}
	return dispatch(m.c.ctx, m.c.backend, m.chat, a, "send message")
}

// pendingItems lists what F2 shows: the chat's steering message list
// (AHP 1.1; marked in steering) and then its queued messages.
func (m *chatModel) pendingItems() ([]reducer.PendingMessage, map[string]bool) {
	if len(m.ahp.SteeringMessages) == 0 {
		return m.state.Queued, nil
	}
	steering := make(map[string]bool, len(m.ahp.SteeringMessages))
	items := make([]reducer.PendingMessage, 0, len(m.ahp.SteeringMessages)+len(m.state.Queued))
	for _, s := range m.ahp.SteeringMessages {
		steering[s.ID] = true
		items = append(items, reducer.PendingMessage{ID: s.ID, Text: s.Message.Text})
	}
	return append(items, m.state.Queued...), steering
}

// isSteeringEntry reports whether id is an entry of the steering list.
func (m *chatModel) isSteeringEntry(id string) bool {
	for _, s := range m.ahp.SteeringMessages {
		if s.ID == id {
			return true
		}
	}
	return false
}

func (m *chatModel) isQueued(id string) bool {
	for _, q := range m.state.Queued {
		if q.ID == id {
			return true
		}
	}
	return false
}

// focusedSubagent is the chat of the focused tool block's subagent ("" none).
func (m *chatModel) focusedSubagent() string {
	b := m.focusedBlock()
	if b == nil || b.Tool == nil {
		return ""
	}
	for _, c := range b.Tool.Content {
		if c.Type == ahpwire.ContentSubagent && c.Resource != "" {
			return c.Resource
		}
	}
	return ""
}

// transcriptExtraKey: n/N between matches, copy a message or the chat as
// markdown, export to a file.
func (m *chatModel) transcriptExtraKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	km := &m.c.km.Transcript
	switch {
	case key.Matches(k, km.SearchNext):
		return m.stepSearch(+1), true
	case key.Matches(k, km.SearchPrev):
		return m.stepSearch(-1), true
	case key.Matches(k, km.CopyMessage):
		msg := m.messageAt(m.currentItem())
		if msg == nil {
			return notice("nothing to copy", false), true
		}
		md := messageMarkdown(msg)
		return copyCmd(md, "the message as markdown", m.c.km.Transcript.Export.Help().Key), true
	case key.Matches(k, km.CopyAll):
		return m.wholeChat(wholeCopy), true
	case key.Matches(k, km.Export):
		return m.wholeChat(wholeExport), true
	}
	return nil, false
}

// currentItem is the focused block's message, else the last visible one.
func (m *chatModel) currentItem() int {
	if i := m.tr.FocusedItem(); i >= 0 {
		return i
	}
	_, last := m.tr.visibleItems()
	return last
}

// allMessages returns the loaded messages, the streaming one last.
func (m *chatModel) allMessages() []*reducer.Message {
	out := append([]*reducer.Message(nil), m.state.Messages...)
	if m.state.Current != nil {
		out = append(out, m.state.Current)
	}
	return out
}

// extraLines are the popups and lists drawn between transcript and composer.
func (m *chatModel) extraLines() []string {
	st := &m.c.styles
	switch {
	case m.x.search.typing:
		return m.x.search.View(st, m.width)
	case m.x.queue.open:
		items, steering := m.pendingItems()
		return m.x.queue.View(st, items, steering, m.width)
	case m.x.bgl.open:
		return m.x.bgl.View(st, m.ahp.BackgroundWork, m.width)
	}
	var out []string
	if s := bgSummary(m.ahp.BackgroundWork); s != "" {
		out = append(out, ansi.Truncate(st.Chat.Queue.Render(s+" — "+m.c.km.Chat.Background.Help().Key+" list"), max(1, m.width), "…"))
	}
	if m.x.parent != "" {
		out = append(out, ansi.Truncate(st.Chat.Notice.Render("↰ a subagent's chat — "+m.c.km.Chat.Parent.Help().Key+" back to the parent chat"), max(1, m.width), "…"))
	}
	return out
}

// statusExtras adds the session's model and mode and the running
// background work to the status line.
func statusExtras(s *statusInfo, ss *ahpwire.SessionState, running int) {
	s.running = running
	if ss == nil || ss.Config == nil {
		return
	}
	schema, err := ahpwire.DecodeSessionConfigSchema(ss.Config.Schema)
	if err != nil {
		return
	}
	if v, ok := ss.Config.Values["model"]; ok {
		s.model = schema.Properties["model"].EnumLabel(v)
	}
	if v, ok := ss.Config.Values["mode"]; ok {
		s.mode = schema.Properties["mode"].EnumLabel(v)
	}
}

// steerHint is the hint-line text while a turn runs.
func (m *chatModel) steerHint() string {
	return "enter queues · " + m.c.km.Composer.Steer.Help().Key + " steers"
}

// popupOver draws the completion popup over the bottom rows of the
// transcript view, right above the composer and indented to the token, so
// that opening it never re-lays out the transcript.
func (m *chatModel) popupOver(tv string) string {
	pop := m.x.compl.View(&m.c.styles, m.width, 2+m.x.compl.anchor)
	if len(pop) == 0 {
		return tv
	}
	lines := strings.Split(tv, "\n")
	start := max(0, len(lines)-len(pop))
	for i := start; i < len(lines); i++ {
		lines[i] = pop[i-start]
	}
	return strings.Join(lines, "\n")
}
