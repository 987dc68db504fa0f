package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/uikit"
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
	in := uikit.NewTextInput(&c.styles)
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
		m.comp.SetPlaceholder("read-only: a subagent's chat (" + m.c.km.Chat.Parent.Help().Key + " back to the parent)")
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

// listKey sends a key to the open search bar, queue list or background
// work list.
func (m *chatModel) listKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.x.search.typing:
		return m.searchKey(k)
	case m.x.queue.open:
		return m.queueKey(k) // queue.go
	}
	if chat := m.x.bgl.Update(k, m.ahp.BackgroundWork); chat != "" {
		m.relayout()
		return uikit.Emit(openChildMsg{chat: chat, parent: m.chat})
	}
	m.relayout()
	return nil
}

// onCompletion: a completion request is due (debounced), or its answer came.
func (m *chatModel) onCompletion(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case completionDueMsg:
		if msg.chat != m.chat {
			return nil
		}
		return m.x.compl.due(m.c.ctx, msg, &m.comp)
	case completionResultMsg:
		if msg.chat == m.chat {
			if msg.err != nil {
				m.c.log.Debug("completions failed", "err", msg.err)
			}
			m.x.compl.result(msg)
			m.relayout()
		}
	}
	return nil
}

// copyMessage copies the current message as markdown.
func (m *chatModel) copyMessage() tea.Cmd {
	msg := m.messageAt(m.currentItem())
	if msg == nil {
		return uikit.Notice("nothing to copy", false)
	}
	md := messageMarkdown(msg)
	return copyCmd(md, "the message as markdown", m.c.km.Transcript.Export.Help().Key)
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
