package tui

import (
	"cmp"
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// What a session that needs the user waits for — an approval or an
// answer — is not in its summary: the inbox reads it from the session's
// state (its inputNeeded roll-up names each request's kind; a host that
// keeps none is asked for the chat instead), once when the session starts
// waiting, over that host's connection, a few at a time. The open chat's
// session is read from the chat's own state. On the attached host a read
// shares the connection with the open chat: ahpclient counts
// subscriptions, so the read's Unsubscribe never ends a subscription the
// chat (or a session being opened) holds.

// maxWaitingProbes bounds the chat reads in flight.
const maxWaitingProbes = 4

// waitingProbedMsg is what one read found ("" when it could not tell).
type waitingProbedMsg struct {
	hs   picker.HostSession
	kind string
}

// probeWaiting starts the reads the picker's waiting sessions need.
func (m *Model) probeWaiting() tea.Cmd {
	var cmds []tea.Cmd
	for _, hs := range m.picker.Unprobed() {
		if m.probing[hs] {
			continue
		}
		if hs.Host == m.here() && m.chat != nil && m.chat.Session == hs.Session {
			kind := picker.WaitQuestion
			if len(m.chat.State.PendingApprovals()) > 0 {
				kind = picker.WaitApproval
			}
			m.picker.SetWaiting(hs.Host, hs.Session, kind)
			continue
		}
		b := m.c.Backend
		if hs.Host != m.here() {
			h := m.host(hs.Host)
			if h == nil {
				continue
			}
			b = h.b
		}
		if b == nil || len(m.probing) >= maxWaitingProbes {
			continue
		}
		sum, _ := m.picker.HostSession(hs.Host, hs.Session)
		if m.probing == nil {
			m.probing = map[picker.HostSession]bool{}
		}
		m.probing[hs] = true
		cmds = append(cmds, readWaiting(m.c.Ctx, b, hs, sum.DefaultChat))
	}
	return tea.Batch(cmds...)
}

// readWaiting reads the session once (its chat too when the session's
// roll-up says nothing) and tells what it waits for.
func readWaiting(ctx context.Context, b app.Backend, hs picker.HostSession, chat string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, peekTimeout)
		defer cancel()
		snap, err := b.Subscribe(ctx, hs.Session, nil)
		if err != nil {
			return waitingProbedMsg{hs: hs}
		}
		_ = b.Unsubscribe(ctx, hs.Session)
		ss, err := ahpwire.DecodeSessionState(snap.State)
		if err != nil {
			return waitingProbedMsg{hs: hs}
		}
		if kind := rollupKind(ss.InputNeeded); kind != "" {
			return waitingProbedMsg{hs: hs, kind: kind}
		}
		chat = cmp.Or(ss.DefaultChat, chat)
		if chat == "" {
			return waitingProbedMsg{hs: hs}
		}
		zero := 0
		snap, err = b.Subscribe(ctx, chat, &ahpwire.SubscribeView{Turns: &zero})
		if err != nil {
			return waitingProbedMsg{hs: hs}
		}
		_ = b.Unsubscribe(ctx, chat)
		st, err := ahpwire.DecodeChatState(snap.State)
		if err != nil {
			return waitingProbedMsg{hs: hs}
		}
		return waitingProbedMsg{hs: hs, kind: waitingKind(st)}
	}
}

// rollupKind is what a session's inputNeeded roll-up says it waits for:
// an approval when a tool call waits for a decision, else a question when
// one is asked ("" when it lists neither).
func rollupKind(reqs []ahpwire.SessionInputRequest) string {
	kind := ""
	for _, q := range reqs {
		switch q.Kind {
		case ahpwire.InputNeededToolConfirmation:
			return picker.WaitApproval
		case ahpwire.InputNeededChatInput:
			kind = picker.WaitQuestion
		}
	}
	return kind
}

// waitingKind tells an approval (a tool call waits for a decision) from a
// question.
func waitingKind(st ahpwire.ChatState) string {
	if at := st.ActiveTurn; at != nil {
		for _, p := range at.ResponseParts.All() {
			if p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && p.ToolCall.WaitsForClient() {
				return picker.WaitApproval
			}
		}
	}
	return picker.WaitQuestion
}

// onWaitingProbed records what a read found. A session of the attached
// host read for it leaves the host's Mirror unless it is open or opening.
func (m *Model) onWaitingProbed(msg waitingProbedMsg) tea.Cmd {
	delete(m.probing, msg.hs)
	m.picker.SetWaiting(msg.hs.Host, msg.hs.Session, msg.kind)
	if msg.hs.Host == m.here() && (m.chat == nil || m.chat.Session != msg.hs.Session) &&
		(m.open == nil || m.open.session != msg.hs.Session) {
		m.c.Mirror.Drop(msg.hs.Session)
	}
	return nil
}
