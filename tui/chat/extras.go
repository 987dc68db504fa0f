package chat

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Extras is the chat's state for completions, steering and the queue
// list, background work and subagents, and search.
type Extras struct {
	Completer Completer
	queue     QueueList
	bgl       BackgroundList
	Search    searchBar
	whole     wholePager // paging older turns in for copy-all / export
	Editing   string     // id of the queued message being edited in the composer
	Parent    string     // the parent chat when this chat is a subagent's
	readOnly  bool       // interactivity "read-only": the composer cannot send
	prefix    string     // the host's terminal command prefix ("" = none)
	Refs      refTurns   // long finished replies re-read by reference (refturns.go)
}

// Modal reports whether a bar or list of the extras takes the keys.
func (x *Extras) Modal() bool {
	return x.Search.typing || x.queue.Open || x.bgl.Open
}

// FeatureSource is implemented by backends that know the host's composer
// features (*ahpclient.Client).
type FeatureSource interface{ HostFeatures() ahpclient.HostFeatures }

// newChatExtras builds the extras of a chat.
func newChatExtras(c *app.App, chat string) Extras {
	var f ahpclient.HostFeatures
	if fs, ok := c.Backend.(FeatureSource); ok {
		f = fs.HostFeatures()
	}
	in := uikit.NewTextInput(&c.Styles)
	in.Prompt = "search › "
	in.Placeholder = "text in the whole chat (collapsed blocks too)"
	return Extras{
		Completer: NewCompleter(c.KM.Completion, chat, f.CompletionTriggerCharacters, c.Backend),
		queue:     QueueList{KM: c.KM.Queue},
		bgl:       BackgroundList{KM: c.KM.Background},
		Search:    searchBar{in: in},
		prefix:    f.TerminalCommandPrefix,
	}
}

// onSnapshot takes what the extras need from a chat snapshot.
func (x *Extras) onSnapshot(cs ahpwire.ChatState) {
	x.readOnly = cs.Interactivity == ahpwire.InteractivityReadOnly
	if cs.ParentChat != "" && x.Parent == "" {
		x.Parent = cs.ParentChat
	}
}

// onExtrasSnapshot applies a chat snapshot to the extras; a read-only
// chat says so in the composer.
func (m *Model) onExtrasSnapshot(cs ahpwire.ChatState) {
	m.Extras.onSnapshot(cs)
	if m.Extras.readOnly {
		m.Composer.SetPlaceholder("read-only: a subagent's chat (" + m.c.KM.Chat.Parent.Help().Key + " back to the parent)")
	}
}

// afterExtrasEnvelope re-lays out the chat when the background work strip
// may have changed.
func (m *Model) afterExtrasEnvelope(env ahpwire.ActionEnvelope) {
	switch env.Action.(type) {
	case *ahpwire.ChatBackgroundWorkSet, *ahpwire.ChatBackgroundWorkRemoved:
		m.Relayout()
	}
}

// listKey sends a key to the open search bar, queue list or background
// work list.
func (m *Model) listKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case m.Extras.Search.typing:
		return m.searchKey(k)
	case m.Extras.queue.Open:
		return m.queueKey(k) // queue.go
	}
	if chat := m.Extras.bgl.Update(k, m.AHP().BackgroundWork); chat != "" {
		m.Relayout()
		return uikit.Emit(OpenChildMsg{Chat: chat, Parent: m.URI})
	}
	m.Relayout()
	return nil
}

// onCompletion: a completion request is due (debounced), or its answer came.
func (m *Model) onCompletion(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case CompletionDueMsg:
		if msg.Chat != m.URI {
			return nil
		}
		return m.Extras.Completer.Due(m.c.Ctx, msg, &m.Composer)
	case CompletionResultMsg:
		if msg.chat == m.URI {
			if msg.Err != nil {
				m.c.Log.Debug("completions failed", "err", msg.Err)
			}
			m.Extras.Completer.Result(msg)
			m.Relayout()
		}
	}
	return nil
}

// copyMessage copies the current message as markdown.
func (m *Model) copyMessage() tea.Cmd {
	msg := m.MessageAt(m.currentItem())
	if msg == nil {
		return uikit.Notice("nothing to copy", false)
	}
	md := messageMarkdown(msg)
	return app.CopyCmd(md, "the message as markdown", m.c.KM.Transcript.Export.Help().Key)
}

// currentItem is the focused block's message, else the last visible one.
func (m *Model) currentItem() int {
	if i := m.Transcript.FocusedItem(); i >= 0 {
		return i
	}
	_, last := m.Transcript.VisibleItems()
	return last
}

// AllMessages returns the loaded messages, the streaming one last.
func (m *Model) AllMessages() []*reducer.Message {
	out := append([]*reducer.Message(nil), m.State.Messages...)
	if m.State.Current != nil {
		out = append(out, m.State.Current)
	}
	return out
}

// extraLines are the popups and lists drawn between transcript and composer.
func (m *Model) extraLines() []string {
	st := &m.c.Styles
	switch {
	case m.Extras.Search.typing:
		return m.Extras.Search.View(st, m.width)
	case m.Extras.queue.Open:
		items, steering := m.pendingItems()
		return m.Extras.queue.View(st, items, steering, m.width)
	case m.Extras.bgl.Open:
		return m.Extras.bgl.View(st, m.AHP().BackgroundWork, m.width)
	}
	var out []string
	if s := BackgroundSummary(m.AHP().BackgroundWork); s != "" {
		out = append(out, ansi.Truncate(st.Chat.Queue.Render(s+" — "+m.c.KM.Chat.Background.Help().Key+" list"), max(1, m.width), "…"))
	}
	if m.Extras.Parent != "" {
		out = append(out, ansi.Truncate(st.Chat.Notice.Render("↰ a subagent's chat — "+m.c.KM.Chat.Parent.Help().Key+" back to the parent chat"), max(1, m.width), "…"))
	}
	return out
}

// StatusExtras adds the session's model and mode and the running
// background work to the status line.
func StatusExtras(s *app.StatusInfo, ss *ahpwire.SessionState, running int) {
	s.Running = running
	if ss == nil || ss.Config == nil {
		return
	}
	schema, err := ahpwire.DecodeSessionConfigSchema(ss.Config.Schema)
	if err != nil {
		return
	}
	if v, ok := ss.Config.Values["model"]; ok {
		s.Model = schema.Properties["model"].EnumLabel(v)
	}
	if v, ok := ss.Config.Values["mode"]; ok {
		s.Mode = schema.Properties["mode"].EnumLabel(v)
	}
}

// steerHint is the hint-line text while a turn runs.
func (m *Model) steerHint() string {
	return "enter queues · " + m.c.KM.Composer.Steer.Help().Key + " steers"
}

// popupOver draws the completion popup over the bottom rows of the
// transcript view, right above the composer and indented to the token, so
// that opening it never re-lays out the transcript.
func (m *Model) popupOver(tv string) string {
	pop := m.Extras.Completer.View(&m.c.Styles, m.width, 2+m.Extras.Completer.anchor)
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
