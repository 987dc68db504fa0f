package chat

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// Pane is which chat pane receives keys.
type Pane int

const (
	FocusComposer   Pane = iota // the composer takes the keys
	FocusTranscript             // the transcript takes the keys (block focus, scrolling)
)

// Model is the chat screen: transcript, pending strip, composer and
// status line. It owns the chat's reducer state.
type Model struct {
	c       *app.App
	Session string
	// WorkDirs are the session's working directories (file: URIs): edits
	// name their files relative to them.
	WorkDirs []string
	URI      string
	Title    string
	// Agent is the session's agent (provider) as last seen: a new session
	// "like this" takes it even when the session is gone.
	Agent string
	// turnModel is the model the newest turn (or draft) selected, "" if
	// none did (see llm.go).
	turnModel  string
	State      reducer.State
	Ready      bool                // the chat snapshot arrived
	LoadErr    string              // why the chat could not be (re)loaded, or why its session ended; "" = fine
	ended      *reducer.SessionEnd // the session ended for this chat (ended.go)
	unsent     []unsentMsg         // user messages that did not reach this chat
	Transcript Transcript
	Composer   Composer
	Focus      Pane
	Thinking   thinkingView
	expanded   map[render.BlockKey]bool
	outbox     []ahpclient.OutboxEntry // this chat's unsettled sends, oldest first
	Cursor     string                  // turnsNextCursor for older history
	Fetching   bool
	dirty      bool // state changed since the transcript was last synced
	Ticking    bool // a frame tick is scheduled
	width      int
	height     int
	Conn       ahpclient.ConnState // a copy of the root's, updated by it
	Extras     Extras              // completions, steering, queue, search, subagents (extras.go)
	// codeFor is the focused block Y copied code of, codeAt the code block
	// it copied and codeTop the window's top then: Y again with nothing
	// moved copies the next one (copycursor.go).
	codeFor string
	codeAt  int
	codeTop tpos
}

// AHP is AHP's state of the chat: the attached host's Mirror's (App.Mirror),
// the zero state until the chat's snapshot arrived. State is the
// transcript derived from it (reducer.Follow over the Mirror's before and
// after states).
func (m *Model) AHP() ahpwire.ChatState {
	if m.c.Mirror == nil {
		return ahpwire.ChatState{}
	}
	cs, _ := m.c.Mirror.Chat(m.URI)
	return cs
}

// New builds the chat screen. It is used through a pointer: the
// transcript's renderer closes over it.
func New(c *app.App, conn ahpclient.ConnState, session, chat, title string) *Model {
	m := &Model{c: c, Conn: conn, Session: session, URI: chat, Title: title, expanded: map[render.BlockKey]bool{}}
	m.Composer = NewComposer(c.KM.Composer, &c.Styles)
	m.Composer.SeedHistory(c.History)
	m.Extras = newChatExtras(c, chat)
	m.Transcript = newTranscript(m.renderItem, c.Styles.Chat.Marker)
	return m
}

// MessageAt returns transcript item i.
func (m *Model) MessageAt(i int) *reducer.Message {
	if i < len(m.State.Messages) {
		return m.State.Messages[i]
	}
	if i == len(m.State.Messages) {
		return m.State.Current
	}
	return nil
}

func (m *Model) itemCount() int {
	n := len(m.State.Messages)
	if m.State.Current != nil {
		n++
	}
	return n
}

// syncTranscript brings the transcript in line with the state (cheap: it
// compares message identities from the end).
func (m *Model) syncTranscript() {
	m.Transcript.sync(m.itemCount(), func(i int) any { return m.MessageAt(i) })
	m.dirty = false
}

// SetSize lays the screen out.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.Composer.SetMaxRows(m.composerRoom())
	m.Composer.SetWidth(w)
	m.Transcript.SetSize(w, m.transcriptHeight())
}

// composerRoom is the most rows the composer may take: what is left after
// one transcript row, the strip and the hint line.
func (m *Model) composerRoom() int {
	return m.height - 1 - len(m.stripLines()) - 1
}

// transcriptHeight is what is left after the composer, strip and status.
func (m *Model) transcriptHeight() int {
	return max(1, m.height-m.Composer.Height()-len(m.stripLines())-len(m.extraLines())-1)
}

// Relayout re-fits the transcript after the bottom area changed height.
func (m *Model) Relayout() {
	m.Composer.SetMaxRows(m.composerRoom())
	if h := m.transcriptHeight(); h != m.Transcript.Height {
		m.Transcript.SetSize(m.width, h)
	}
}

// stripLines are the queued messages and unsettled sends shown above the
// composer.
func (m *Model) stripLines() []string {
	st := &m.c.Styles
	var out []string
	// Each line is cut to the width when drawn: only the head of a long
	// message is sanitised, on every frame.
	first := func(s string) string { return uikit.OneLine(render.Sanitize(render.Head(s, m.width))) }
	if s := m.State.Steering; s != nil {
		out = append(out, st.Chat.Queue.Render("↪ steering: "+first(s.Text)))
	}
	for _, q := range m.State.Queued {
		if m.Extras.queue.Open {
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
		key := m.c.KM.Chat.NewSession.Help().Key
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

// SentText is the user text of a dispatched send, "" for other actions.
func SentText(a ahpwire.Action) string { return render.Sanitize(sentRaw(a)) }

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

// TrackOutbox records an outbox change of this chat's user sends. It
// reports whether the strip changed.
func (m *Model) TrackOutbox(e ahpclient.OutboxEntry) bool {
	if e.Channel != m.URI || SentText(e.Action) == "" && !isSend(e.Action) {
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
	m.Relayout()
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
func (m *Model) firstUncertain() (ahpclient.OutboxEntry, bool) {
	for _, e := range m.outbox {
		if e.Status == ahpclient.OutboxUncertain {
			return e, true
		}
	}
	return ahpclient.OutboxEntry{}, false
}

// ResumableTurn returns the id of the chat's last turn when AHP lets it
// be resumed (ahpstate.Resumable, the rule the host validates
// chat/turnResume against), "" otherwise.
func (m *Model) ResumableTurn() string {
	cs := m.AHP()
	if cs.ActiveTurn != nil || len(cs.Turns) == 0 {
		return ""
	}
	if id := cs.Turns[len(cs.Turns)-1].ID; ahpstate.Resumable(cs, id) {
		return id
	}
	return ""
}

// pendingCount counts what waits for the user: approvals, result reviews,
// tool calls waiting for authentication, and questions.
func (m *Model) pendingCount() int {
	return len(m.State.PendingInputs()) + len(m.State.PendingApprovals())
}

// usage returns the token usage of the current turn; when no turn runs, of
// the last finished one. A running turn never shows the previous turn's
// numbers.
func (m *Model) usage() *reducer.Usage {
	if m.State.Current != nil {
		return m.State.Current.Usage
	}
	if n := len(m.State.Messages); n > 0 {
		return m.State.Messages[n-1].Usage
	}
	return nil
}

// View draws the chat screen (height lines; the root adds the status line).
// sessionChanges tells that the chat's session lists changesets (the root
// holds the session's state).
func (m *Model) View(sessionChanges bool) string {
	var b strings.Builder
	tv := m.Transcript.View()
	if m.Ready && m.itemCount() == 0 {
		tv = m.emptyChatView(tv) // says what to do instead of a blank screen (quickstart.go)
	}
	tv = m.popupOver(m.Extras.Search.decorate(tv, &m.c.Styles))
	b.WriteString(tv)
	b.WriteByte('\n')
	for _, l := range append(m.stripLines(), m.extraLines()...) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.WriteString(m.Composer.View())
	b.WriteByte('\n')
	b.WriteString(m.HintLine(sessionChanges))
	return b.String()
}

// Status fills the chat part of the status line.
func (m *Model) Status(s *app.StatusInfo) {
	s.Title = cmp.Or(m.Title, "(untitled)")
	s.Pending = m.pendingCount()
	s.Model = m.turnModel
	if u := m.usage(); u != nil {
		s.Model = cmp.Or(u.Model, s.Model)
		s.Usage = app.FormatTokens(u.InputTokens) + " in · " + app.FormatTokens(u.OutputTokens) + " out"
	}
}

// HintLine shows the activity and the most relevant keys.
func (m *Model) HintLine(sessionChanges bool) string {
	st := &m.c.Styles
	var parts []string
	if m.LoadErr != "" {
		return ansi.Truncate(m.c.Styles.Chat.Error.Render("✗ "+m.LoadErr+" — "+m.c.KM.Chat.NewSession.Help().Key+" new session · "+
			m.c.KM.Chat.Sessions.Help().Key+" sessions"), max(1, m.width), "…")
	}
	if m.Extras.Completer.Open() {
		return ansi.Truncate(st.Status.Hint.Render("completions: ↑↓ choose · tab/enter insert · esc close"), max(1, m.width), "…")
	}
	if !m.Ready {
		parts = append(parts, "loading chat…")
	}
	switch m.Conn.Phase {
	case ahpclient.Connected:
	case ahpclient.Failed, ahpclient.Closed:
		// The client stopped trying: nothing is held for a reconnect.
		parts = append(parts, "disconnected — nothing can be sent (the status line says why); quit and attach again")
	default:
		parts = append(parts, "offline — what you send is held and sent after reconnecting")
		if m.Conn.Phase == ahpclient.Reconnecting {
			parts = append(parts, m.c.KM.Global.Reconnect.Help().Key+" reconnect now")
		}
	}
	inTranscript := m.Focus == FocusTranscript
	if m.State.Current != nil && m.Ready {
		act := cmp.Or(render.SanitizeLine(m.State.Activity, max(1, m.width)), "working") // one line, cut below
		if inTranscript {
			// Enter and alt+enter act on the transcript here, not the composer.
			parts = append(parts, "● "+act+" — esc cancels")
		} else {
			parts = append(parts, "● "+act+" — esc cancels · "+m.steerHint())
		}
	} else if m.ResumableTurn() != "" {
		parts = append(parts, "turn failed — "+m.c.KM.Chat.Resume.Help().Key+" or /resume resumes")
	}
	km := &m.c.KM
	if inTranscript {
		// What enter does on the focused block comes first: it survives
		// a narrow window's cut.
		enter := "enter expand"
		switch {
		case m.FocusedTerminal() != "":
			enter = km.Terminal.Interact.Help().Key + " " + km.Terminal.Interact.Help().Desc
		case m.focusedSubagent() != "":
			enter = "enter open the subagent's chat"
		}
		parts = append(parts, "transcript: "+enter+" · [ ] block · ↑↓ pgup/pgdn scroll · y copy · "+
			km.Chat.SwitchFocus.Help().Key+" back")
	} else if len(parts) == 0 && m.Extras.prefix != "" && strings.HasPrefix(m.Composer.Value(), m.Extras.prefix) {
		parts = append(parts, m.Extras.prefix+"command runs in the host's terminal")
	} else if len(parts) == 0 {
		if h := m.changesHint(sessionChanges); h != "" {
			parts = append(parts, h) // hints.go
		}
		parts = append(parts, km.Chat.SwitchFocus.Help().Key+" transcript · "+km.Chat.CycleThinking.Help().Key+
			" thinking ("+m.Thinking.String()+") · "+km.Chat.Sessions.Help().Key+" sessions · "+km.Global.Help.Help().Key+" help")
	}
	return ansi.Truncate(st.Status.Hint.Render(strings.Join(parts, " · ")), max(1, m.width), "…")
}
