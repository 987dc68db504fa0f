package tui

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
)

// The inbox acts on a session of any host without opening it: a peek
// (picker.PeekMsg) reads the session's chat once over that host's own
// connection and shows its last lines; the approval or question it waits
// for is prompted above the peek with the chat's own dialogs, and the
// decision goes back over that host's connection. The chat open on the
// attached host, if any, stays as it was.

// peekTimeout bounds reading a session for a peek.
const peekTimeout = 10 * time.Second

// inboxPrompt is the session a peek is showing: where its decisions go.
type inboxPrompt struct {
	host, session, chat string
	b                   app.Backend
	turn                string // the active turn
	tool, request       string // the pending tool call / input request ids
}

// peekLoadedMsg is a peek's reading of a session's chat.
type peekLoadedMsg struct {
	host, session, chat string
	b                   app.Backend
	state               ahpwire.ChatState
	err                 error
}

// inboxDoneMsg reports a decision sent from the inbox.
type inboxDoneMsg struct {
	what string
	err  error
}

// onPeek starts reading the session for a peek.
func (m *Model) onPeek(msg picker.PeekMsg) tea.Cmd {
	host := cmp.Or(msg.Host, m.here())
	if msg.Host == "" && m.chat != nil && m.chat.Session == msg.Session {
		// The open chat: its own prompts show what it waits for.
		m.screen = screenChat
		if !m.openFirstPending(true) {
			return m.setNotice("nothing is waiting for you", false)
		}
		return nil
	}
	b := m.c.Backend
	if msg.Host != "" {
		h := m.host(msg.Host)
		if h == nil || h.b == nil {
			return m.setNotice("@"+msg.Host+" is not connected", true)
		}
		b = h.b
	}
	if b == nil {
		return m.setNotice("no host is connected", true)
	}
	sum, _ := m.picker.HostSession(host, msg.Session)
	chat := sum.DefaultChat
	if chat == "" && len(sum.Chats) > 0 {
		chat = sum.Chats[0].Resource
	}
	if chat == "" && msg.Host == "" {
		// Reading the session channel on the attached host would look like
		// opening it.
		return m.setNotice("open the session to see it: its chat is not known yet", false)
	}
	ctx, session := m.c.Ctx, msg.Session
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, peekTimeout)
		defer cancel()
		out := peekLoadedMsg{host: msg.Host, session: session, chat: chat, b: b}
		if out.chat == "" { // the session names its chats
			snap, err := b.Subscribe(ctx, session, nil)
			if err != nil {
				out.err = err
				return out
			}
			_ = b.Unsubscribe(ctx, session)
			st, err := ahpwire.DecodeSessionState(snap.State)
			if err == nil && st.DefaultChat != "" {
				out.chat = st.DefaultChat
			} else if err == nil && len(st.Chats) > 0 {
				out.chat = st.Chats[0].Resource
			}
			if out.chat == "" {
				out.err = errNoChat
				return out
			}
		}
		turns := 2
		snap, err := b.Subscribe(ctx, out.chat, &ahpwire.SubscribeView{Turns: &turns})
		if err != nil {
			out.err = err
			return out
		}
		_ = b.Unsubscribe(ctx, out.chat)
		out.state, out.err = ahpwire.DecodeChatState(snap.State)
		return out
	}
}

// errNoChat: a session without a chat has nothing to peek at.
var errNoChat = errors.New("the session has no chat yet")

// onPeekLoaded shows the peek, and above it the approval or question the
// session waits for.
func (m *Model) onPeekLoaded(msg peekLoadedMsg) tea.Cmd {
	if msg.err != nil {
		return m.errNotice("could not peek at the session", msg.err)
	}
	sum, _ := m.picker.HostSession(cmp.Or(msg.host, m.here()), msg.session)
	title := cmp.Or(sum.Title, msg.state.Title, msg.session)
	if msg.host != "" {
		title += " · @" + msg.host
	}
	ip := &inboxPrompt{host: msg.host, session: msg.session, chat: msg.chat, b: msg.b}
	var tool *ahpwire.ToolCallState
	var input *ahpwire.ChatInputRequest
	if at := msg.state.ActiveTurn; at != nil {
		ip.turn = at.ID
		for _, p := range at.ResponseParts.All() {
			switch {
			case tool == nil && p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && p.ToolCall.WaitsForClient():
				tool = p.ToolCall
			case input == nil && p.Kind == ahpwire.PartInputRequest && p.Request != nil && p.Response == "":
				input = p.Request
			}
		}
	}
	if input == nil && len(msg.state.InputRequests) > 0 {
		input = &msg.state.InputRequests[0]
	}
	note := "nothing waits for you"
	switch {
	case tool != nil && tool.Status == ahpwire.ToolAuthRequired:
		note = "needs a sign-in: open the chat"
	case tool != nil:
		note = "needs approval: " + cmp.Or(tool.ToolName, "a tool call")
	case input != nil:
		note = "needs an answer"
	}
	open := picker.OpenSessionMsg{Session: msg.session, Host: msg.host}
	m.overlays = append(m.overlays, dialog.NewPeek(m.c.KM.Peek, title, peekLines(msg.state, dialog.PeekLines), note, open))
	m.inbox = ip
	switch {
	case tool != nil && tool.Status != ahpwire.ToolAuthRequired:
		ip.tool = tool.ToolCallID
		m.overlays = append(m.overlays, dialog.NewApproval(m.c.KM.Approval, ip.turn, tool, &m.c.Styles))
	case input != nil:
		ip.request = input.ID
		m.overlays = append(m.overlays, dialog.NewInputForm(m.c.KM.Form, ip.turn, input, &m.c.Styles))
	}
	return nil
}

// inboxTool reports whether a tool decision belongs to the inbox's prompt.
func (m *Model) inboxTool(d dialog.ToolDecisionMsg) bool {
	return m.inbox != nil && m.inbox.tool != "" && m.inbox.tool == d.ToolCallID
}

// inboxInput reports whether an answer belongs to the inbox's prompt.
func (m *Model) inboxInput(d dialog.InputDecisionMsg) bool {
	return m.inbox != nil && m.inbox.request != "" && m.inbox.request == d.RequestID
}

// sendInbox dispatches a decision on the peeked session's host.
func (m *Model) sendInbox(a ahpwire.Action, what string) tea.Cmd {
	ip := m.inbox
	m.inbox = nil
	m.closePeek()
	ctx := m.c.Ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, peekTimeout)
		defer cancel()
		_, err := ip.b.Dispatch(ctx, ip.chat, a)
		where := ""
		if ip.host != "" {
			where = " on @" + ip.host
		}
		return inboxDoneMsg{what: what + where, err: err}
	}
}

// closePeek takes the peek off the overlays (its decision was sent).
func (m *Model) closePeek() {
	kept := m.overlays[:0]
	for _, ov := range m.overlays {
		if _, ok := ov.(*dialog.Peek); !ok {
			kept = append(kept, ov)
		}
	}
	m.overlays = kept
}

// onInboxDone says how a decision sent from the inbox went.
func (m *Model) onInboxDone(msg inboxDoneMsg) tea.Cmd {
	if msg.err != nil {
		return m.errNotice("could not "+msg.what, msg.err)
	}
	return m.setNotice(msg.what+": sent", false)
}

// peekLines is the chat's last n lines of text: the active turn's, else
// the last finished turn's (its answer, or its message).
func peekLines(st ahpwire.ChatState, n int) []string {
	var text strings.Builder
	add := func(parts []ahpwire.ResponsePart) {
		for _, p := range parts {
			switch {
			case p.Kind == ahpwire.PartMarkdown:
				text.WriteString(p.Content + "\n")
			case p.Kind == ahpwire.PartToolCall && p.ToolCall != nil:
				text.WriteString("⚙ " + cmp.Or(p.ToolCall.ToolName, "tool") + " — " + p.ToolCall.Status + "\n")
			case p.Kind == ahpwire.PartInputRequest && p.Request != nil:
				text.WriteString("? " + p.Request.Message + "\n")
			}
		}
	}
	switch {
	case st.ActiveTurn != nil:
		text.WriteString("› " + st.ActiveTurn.Message.Text + "\n")
		add(st.ActiveTurn.ResponseParts.Slice())
	case len(st.Turns) > 0:
		t := st.Turns[len(st.Turns)-1]
		text.WriteString("› " + t.Message.Text + "\n")
		add(t.ResponseParts)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(text.String(), "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
