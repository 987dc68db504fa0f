package tui

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// chatFocus is which chat pane receives keys.
type chatFocus int

const (
	focusComposer chatFocus = iota
	focusTranscript
)

// chatModel is the chat screen: transcript, pending strip, composer and
// status line. It owns the chat's reducer state.
type chatModel struct {
	c       *common
	session string
	// workDirs are the session's working directories (file: URIs): edits
	// name their files relative to them.
	workDirs []string
	chat     string
	title    string
	// turnModel is the model the newest turn (or draft) selected, "" if
	// none did (see chat_model.go).
	turnModel string
	state     reducer.State
	ready     bool        // the chat snapshot arrived
	loadErr   string      // why the chat could not be (re)loaded; "" = fine
	unsent    []unsentMsg // user messages that did not reach this chat
	tr        transcript
	comp      composer
	focus     chatFocus
	thinking  thinkingView
	expanded  map[render.BlockKey]bool
	outbox    []ahpclient.OutboxEntry // this chat's unsettled sends, oldest first
	cursor    string                  // turnsNextCursor for older history
	fetching  bool
	dirty     bool // state changed since the transcript was last synced
	ticking   bool // a frame tick is scheduled
	width     int
	height    int
	conn      ahpclient.ConnState // a copy of the root's, updated by it
	x         chatExtras          // completions, steering, queue, search, subagents (chat_extras.go)
	// ahp is AHP's state of the chat, kept with package ahpstate's reducer
	// (through reducer.Apply); state is the transcript derived from it.
	ahp ahpwire.ChatState
}

// newChat builds the chat screen. It is used through a pointer: the
// transcript's renderer closes over it.
func newChat(c *common, conn ahpclient.ConnState, session, chat, title string) *chatModel {
	m := &chatModel{c: c, conn: conn, session: session, chat: chat, title: title, expanded: map[render.BlockKey]bool{}}
	m.comp = newComposer(c.km.Composer, &c.styles)
	c.hist.seedComposer(&m.comp)
	m.x = newChatExtras(c, chat)
	m.tr = newTranscript(m.renderItem, c.styles.Chat.Marker)
	return m
}

// messageAt returns transcript item i.
func (m *chatModel) messageAt(i int) *reducer.Message {
	if i < len(m.state.Messages) {
		return m.state.Messages[i]
	}
	if i == len(m.state.Messages) {
		return m.state.Current
	}
	return nil
}

func (m *chatModel) itemCount() int {
	n := len(m.state.Messages)
	if m.state.Current != nil {
		n++
	}
	return n
}

// syncTranscript brings the transcript in line with the state (cheap: it
// compares message identities from the end).
func (m *chatModel) syncTranscript() {
	m.tr.sync(m.itemCount(), func(i int) any { return m.messageAt(i) })
	m.dirty = false
}

// SetSize lays the screen out.
func (m *chatModel) SetSize(w, h int) {
	m.width, m.height = w, h
	m.comp.SetMaxRows(m.composerRoom())
	m.comp.SetWidth(w)
	m.tr.SetSize(w, m.transcriptHeight())
}

// composerRoom is the most rows the composer may take: what is left after
// one transcript row, the strip and the hint line.
func (m *chatModel) composerRoom() int {
	return m.height - 1 - len(m.stripLines()) - 1
}

// transcriptHeight is what is left after the composer, strip and status.
func (m *chatModel) transcriptHeight() int {
	return max(1, m.height-m.comp.Height()-len(m.stripLines())-len(m.extraLines())-1)
}

// relayout re-fits the transcript after the bottom area changed height.
func (m *chatModel) relayout() {
	m.comp.SetMaxRows(m.composerRoom())
	if h := m.transcriptHeight(); h != m.tr.height {
		m.tr.SetSize(m.width, h)
	}
}

// stripLines are the queued messages and unsettled sends shown above the
// composer.
func (m *chatModel) stripLines() []string {
	st := &m.c.styles
	var out []string
	// Each line is cut to the width when drawn: only the head of a long
	// message is sanitised, on every frame.
	first := func(s string) string { return uikit.OneLine(render.Sanitize(render.Head(s, m.width))) }
	if s := m.state.Steering; s != nil {
		out = append(out, st.Chat.Queue.Render("↪ steering: "+first(s.Text)))
	}
	for _, q := range m.state.Queued {
		if m.x.queue.open {
			break // the open queue list shows them
		}
		out = append(out, st.Chat.Queue.Render("⧗ queued: "+first(q.Text)))
	}
	for _, e := range m.outbox {
		text := first(sentRaw(e.Action))
		switch e.Status {
		case ahpclient.OutboxHeld:
			out = append(out, st.Chat.Outbox.Render("⧗ pending (sent when reconnected): "+text))
		case ahpclient.OutboxSent:
			out = append(out, st.Chat.Outbox.Render("… sending: "+text))
		case ahpclient.OutboxUncertain:
			out = append(out, st.Chat.Uncertain.Render("? not confirmed — ctrl+y resends: "+text))
		}
	}
	if len(out) > 4 {
		out = append(out[:3], st.Chat.Queue.Render("… and more"))
	}
	if n := len(m.unsent); n > 0 {
		// Unsent messages always show: they are the user's words, lost
		// otherwise, and say how to get them into a working chat.
		key := m.c.km.Chat.NewSession.Help().Key
		u := m.unsent[n-1]
		line := "✗ not sent (" + u.why + "): " + first(u.text) + " — " + key + " resends in a new session"
		if n > 1 {
			line = "✗ " + strconv.Itoa(n) + " messages not sent (" + u.why + ") — " + key + " resends them in a new session"
		}
		out = append(out, st.Chat.Error.Render(line))
	}
	for i, l := range out {
		out[i] = ansi.Truncate(l, max(1, m.width), "…")
	}
	return out
}

// sentText is the user text of a dispatched send, "" for other actions.
func sentText(a ahpwire.Action) string { return render.Sanitize(sentRaw(a)) }

// sentRaw is the text of a user send as typed ("" for other actions).
func sentRaw(a ahpwire.Action) string {
	switch a := a.(type) {
	case *ahpwire.ChatTurnStarted:
		return a.Message.Text
	case *ahpwire.ChatPendingMessageSet:
		return a.Message.Text
	}
	return ""
}

// trackOutbox records an outbox change of this chat's user sends. It
// reports whether the strip changed.
func (m *chatModel) trackOutbox(e ahpclient.OutboxEntry) bool {
	if e.Channel != m.chat || sentText(e.Action) == "" && !isSend(e.Action) {
		return false
	}
	i := slices.IndexFunc(m.outbox, func(x ahpclient.OutboxEntry) bool { return x.ClientSeq == e.ClientSeq })
	switch e.Status {
	case ahpclient.OutboxHeld, ahpclient.OutboxSent, ahpclient.OutboxUncertain:
		if i >= 0 {
			m.outbox[i] = e
		} else {
			m.outbox = append(m.outbox, e)
		}
	default:
		if i < 0 {
			return false
		}
		m.outbox = slices.Delete(m.outbox, i, i+1)
	}
	m.relayout()
	return true
}

func isSend(a ahpwire.Action) bool {
	switch a.(type) {
	case *ahpwire.ChatTurnStarted, *ahpwire.ChatPendingMessageSet:
		return true
	}
	return false
}

// firstUncertain returns the oldest uncertain send.
func (m *chatModel) firstUncertain() (ahpclient.OutboxEntry, bool) {
	for _, e := range m.outbox {
		if e.Status == ahpclient.OutboxUncertain {
			return e, true
		}
	}
	return ahpclient.OutboxEntry{}, false
}

// resumableTurn returns the turn id of a last message that ended in a
// resumable error.
func (m *chatModel) resumableTurn() string {
	if m.state.Current != nil || len(m.state.Messages) == 0 {
		return ""
	}
	last := m.state.Messages[len(m.state.Messages)-1]
	if last.Status != reducer.StatusError {
		return ""
	}
	for _, b := range last.Blocks {
		if b.Kind == reducer.KindError && b.Err.Resumable {
			return last.TurnID
		}
	}
	return ""
}

// pendingCount counts what waits for the user: approvals, result reviews,
// tool calls waiting for authentication, and questions.
func (m *chatModel) pendingCount() int {
	return len(m.state.PendingInputs()) + len(m.state.PendingApprovals())
}

// usage returns the token usage of the current turn; when no turn runs, of
// the last finished one. A running turn never shows the previous turn's
// numbers.
func (m *chatModel) usage() *reducer.Usage {
	if m.state.Current != nil {
		return m.state.Current.Usage
	}
	if n := len(m.state.Messages); n > 0 {
		return m.state.Messages[n-1].Usage
	}
	return nil
}

// View draws the chat screen (height lines; the root adds the status line).
// sessionChanges tells that the chat's session lists changesets (the root
// holds the session's state).
func (m *chatModel) View(sessionChanges bool) string {
	var b strings.Builder
	tv := m.tr.View()
	if m.ready && m.itemCount() == 0 {
		tv = m.emptyChatView(tv) // says what to do instead of a blank screen (quickstart.go)
	}
	tv = m.popupOver(m.x.search.decorate(tv, &m.c.styles))
	b.WriteString(tv)
	b.WriteByte('\n')
	for _, l := range append(m.stripLines(), m.extraLines()...) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.comp.View())
	b.WriteByte('\n')
	b.WriteString(m.hintLine(sessionChanges))
	return b.String()
}

// status fills the chat part of the status line.
func (m *chatModel) status(s *statusInfo) {
	s.title = cmp.Or(m.title, "(untitled)")
	s.pending = m.pendingCount()
	s.model = m.turnModel
	if u := m.usage(); u != nil {
		s.model = cmp.Or(u.Model, s.model)
		s.usage = formatTokens(u.InputTokens) + " in · " + formatTokens(u.OutputTokens) + " out"
	}
}

// hintLine shows the activity and the most relevant keys.
func (m *chatModel) hintLine(sessionChanges bool) string {
	st := &m.c.styles
	var parts []string
	if m.loadErr != "" {
		return ansi.Truncate(m.c.styles.Chat.Error.Render("✗ "+m.loadErr+" — "+m.c.km.Chat.NewSession.Help().Key+" new session · "+
			m.c.km.Chat.Sessions.Help().Key+" sessions"), max(1, m.width), "…")
	}
	if m.x.compl.Open() {
		return ansi.Truncate(st.Status.Hint.Render("completions: ↑↓ choose · tab/enter insert · esc close"), max(1, m.width), "…")
	}
	if !m.ready {
		parts = append(parts, "loading chat…")
	}
	if m.conn.Phase != ahpclient.Connected {
		parts = append(parts, "offline — what you send is held and sent after reconnecting")
		if m.conn.Phase == ahpclient.Reconnecting {
			parts = append(parts, m.c.km.Global.Reconnect.Help().Key+" reconnect now")
		}
	}
	inTranscript := m.focus == focusTranscript
	if m.state.Current != nil && m.ready {
		act := cmp.Or(render.SanitizeLine(m.state.Activity, max(1, m.width)), "working") // one line, cut below
		if inTranscript {
			// Enter and alt+enter act on the transcript here, not the composer.
			parts = append(parts, "● "+act+" — esc cancels")
		} else {
			parts = append(parts, "● "+act+" — esc cancels · "+m.steerHint())
		}
	} else if m.resumableTurn() != "" {
		parts = append(parts, "turn failed — "+m.c.km.Chat.Resume.Help().Key+" or /resume resumes")
	}
	km := &m.c.km
	if inTranscript {
		// What enter does on the focused block comes first: it survives
		// a narrow window's cut.
		enter := "enter expand"
		switch {
		case m.focusedTerminal() != "":
			enter = km.Terminal.Interact.Help().Key + " " + km.Terminal.Interact.Help().Desc
		case m.focusedSubagent() != "":
			enter = "enter open the subagent's chat"
		}
		parts = append(parts, "transcript: "+enter+" · [ ] block · ↑↓ pgup/pgdn scroll · y copy · "+
			km.Chat.SwitchFocus.Help().Key+" back")
	} else if len(parts) == 0 && m.x.prefix != "" && strings.HasPrefix(m.comp.Value(), m.x.prefix) {
		parts = append(parts, m.x.prefix+"command runs in the host's terminal")
	} else if len(parts) == 0 {
		if h := m.changesHint(sessionChanges); h != "" {
			parts = append(parts, h) // hints.go
		}
		parts = append(parts, km.Chat.SwitchFocus.Help().Key+" transcript · "+km.Chat.CycleThinking.Help().Key+
			" thinking ("+m.thinking.String()+") · "+km.Chat.Sessions.Help().Key+" sessions · "+km.Global.Help.Help().Key+" help")
	}
	return ansi.Truncate(st.Status.Hint.Render(strings.Join(parts, " · ")), max(1, m.width), "…")
}
