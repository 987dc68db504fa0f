package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
)

// chatExtras is the chat's state for completions, steering and the queue
// list, background work and subagents, and search.
type chatExtras struct {
	compl    completer
	queue    queueList
	bgl      bgList
	search   searchBar
	editing  string // id of the queued message being edited in the composer
	parent   string // the parent chat when this chat is a subagent's
	readOnly bool   // interactivity "read-only": the composer cannot send
	prefix   string // the host's terminal command prefix ("" = none)
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
		in := m.x.queue.Update(k, m.state.Queued)
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
		if len(m.state.Queued) == 0 {
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
	case key.Matches(k, km.Chat.Parent):
		if m.x.parent == "" {
			return notice("this chat has no parent chat", false), true
		}
		return emit(openChildMsg{chat: m.x.parent}), true
	case m.focus == focusTranscript && key.Matches(k, km.Transcript.ToggleBlock):
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
	m.comp.pushHistory(m.comp.ta.Value())
	m.comp.ta.Reset()
	m.comp.pastes, m.comp.nPaste = map[int]string{}, 0
	m.comp.hIdx = len(m.comp.history)
	m.relayout()
	return m.sendMessage(text, steer)
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
	case editing != "" && m.isQueued(editing):
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: editing, Message: msg}
		return dispatch(m.c.ctx, m.c.backend, m.chat, a, "edit queued message")
	case steer && m.state.Current != nil:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingSteering, ID: m.c.newID(), Message: msg}
		return tea.Batch(dispatch(m.c.ctx, m.c.backend, m.chat, a, "steer"), notice("steering sent — the agent sees it mid-turn", false))
	case m.state.Current != nil:
		a := &ahpwire.ChatPendingMessageSet{Kind: ahpwire.PendingQueued, ID: m.c.newID(), Message: msg}
		return dispatch(m.c.ctx, m.c.backend, m.chat, a, "queue message")
	}
	a := &ahpwire.ChatTurnStarted{TurnID: m.c.newID(), StartedAt: m.c.now().UTC().Format(time.RFC3339Nano), Message: msg}
	return dispatch(m.c.ctx, m.c.backend, m.chat, a, "send message")
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
	sp := m.tr.FocusedSpan()
	if sp == nil {
		return ""
	}
	_, b := m.blockAt(sp.ID)
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
		return tea.Batch(tea.SetClipboard(md), notice(fmt.Sprintf("copied the message as markdown (%d bytes)", len(md)), false)), true
	case key.Matches(k, km.CopyAll):
		md := chatMarkdown(m.title, m.allMessages())
		return tea.Batch(tea.SetClipboard(md), notice(fmt.Sprintf("copied the chat as markdown (%d bytes)", len(md)), false)), true
	case key.Matches(k, km.Export):
		return exportCmd("", exportFileName(m.title, m.c.now()), chatMarkdown(m.title, m.allMessages())), true
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
		return m.x.queue.View(st, m.state.Queued, m.width)
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

// searchBar is the search input and its results.
type searchBar struct {
	in     textinput.Model
	typing bool
	query  string
	hits   []searchHit
	cur    int
	paging bool // fetching older turns so the search covers the whole chat
	// pagedFrom is the cursor of the last page asked for.
	pagedFrom string
}

// View renders the bar: input and the match count.
func (s *searchBar) View(st *Styles, width int) []string {
	count := "no matches"
	if len(s.hits) > 0 {
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.hits))
	}
	if s.paging {
		count += " · loading older turns…"
	}
	return []string{ansi.Truncate(s.in.View()+"  "+st.Dialog.Muted.Render(count+" · enter next · esc close"), max(1, width), "…")}
}

// openSearch opens the bar; older turns are paged in so that the search
// covers the whole chat.
func (m *chatModel) openSearch() tea.Cmd {
	m.x.search.typing = true
	m.x.search.in.SetValue(m.x.search.query)
	m.x.search.in.CursorEnd()
	m.relayout()
	cmds := []tea.Cmd{m.x.search.in.Focus()}
	if m.cursor != "" && !m.fetching {
		m.x.search.paging, m.fetching, m.x.search.pagedFrom = true, true, m.cursor
		cmds = append(cmds, fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor))
	}
	return tea.Batch(cmds...)
}

// searchKey edits the query (searching as it changes) and moves between
// matches.
func (m *chatModel) searchKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.c.km.Search
	switch {
	case key.Matches(k, km.Close):
		m.x.search.typing = false
		m.x.search.in.Blur()
		m.relayout()
		m.tr.invalidateAll()
		return nil
	case key.Matches(k, km.Next):
		return m.stepSearch(+1)
	case key.Matches(k, km.Prev):
		return m.stepSearch(-1)
	}
	var cmd tea.Cmd
	m.x.search.in, cmd = m.x.search.in.Update(k)
	if q := m.x.search.in.Value(); q != m.x.search.query {
		m.x.search.query = q
		return tea.Batch(cmd, m.runSearch(true))
	}
	return cmd
}

// runSearch recomputes the matches; jump moves to the first one.
func (m *chatModel) runSearch(jump bool) tea.Cmd {
	s := &m.x.search
	s.hits = searchMessages(m.itemCount(), m.messageAt, s.query)
	s.cur = 0
	m.tr.invalidateAll()
	if len(s.hits) == 0 || !jump {
		return nil
	}
	m.gotoHit(s.hits[0])
	return nil
}

// stepSearch moves to the next (dir=+1) or previous match.
func (m *chatModel) stepSearch(dir int) tea.Cmd {
	s := &m.x.search
	if s.query == "" {
		return notice("no search — "+m.c.km.Chat.Search.Help().Key+" searches", false)
	}
	if len(s.hits) == 0 {
		return notice("no matches for "+strconv.Quote(s.query), false)
	}
	s.cur = (s.cur + dir + len(s.hits)) % len(s.hits)
	m.gotoHit(s.hits[s.cur])
	return nil
}

// gotoHit expands the matching block (so the match is visible even when
// it was collapsed) and scrolls to its first matching line.
func (m *chatModel) gotoHit(h searchHit) {
	if h.index >= 0 {
		k := render.BlockKey{MessageID: h.msgID, Index: h.index}
		if !m.expanded[k] {
			m.expanded[k] = true
			m.tr.invalidate(h.item)
		}
	}
	m.tr.layout()
	if h.item >= len(m.tr.items) {
		return
	}
	line := max(0, lineOf(m.tr.ensure(h.item).lines, m.x.search.query))
	m.tr.reveal(h.item, line)
}

// decorate highlights the search query in the visible transcript lines.
func (s *searchBar) decorate(view string, st *Styles) string {
	if s.query == "" || len(s.hits) == 0 {
		return view
	}
	sty := st.Picker.Match.Reverse(true)
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = highlightLine(l, s.query, sty)
	}
	return strings.Join(lines, "\n")
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
