package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// What a session that needs the user waits for — an approval or an
// answer — is not in its summary: the inbox reads it from the chat of each
// such session of a watched host (one read when the session starts
// waiting, over that host's connection; a few at a time), and from the
// open chat's own state. The attached host's other sessions are not read
// (a read there could race the user opening the same chat); they say
// "needs you" until opened.

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
		if hs.Host == m.here() {
			if m.chat != nil && m.chat.Session == hs.Session {
				kind := picker.WaitQuestion
				if len(m.chat.State.PendingApprovals()) > 0 {
					kind = picker.WaitApproval
				}
				m.picker.SetWaiting(hs.Host, hs.Session, kind)
			}
			continue
		}
		h := m.host(hs.Host)
		if h == nil || h.b == nil || len(m.probing) >= maxWaitingProbes {
			continue
		}
		sum, _ := m.picker.HostSession(hs.Host, hs.Session)
		if sum.DefaultChat == "" {
			m.picker.SetWaiting(hs.Host, hs.Session, "")
			continue
		}
		if m.probing == nil {
			m.probing = map[picker.HostSession]bool{}
		}
		m.probing[hs] = true
		cmds = append(cmds, readWaiting(m.c.Ctx, h.b, hs, sum.DefaultChat))
	}
	return tea.Batch(cmds...)
}

// readWaiting reads chat once and tells what it waits for.
func readWaiting(ctx context.Context, b app.Backend, hs picker.HostSession, chat string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, peekTimeout)
		defer cancel()
		zero := 0
		snap, err := b.Subscribe(ctx, chat, &ahpwire.SubscribeView{Turns: &zero})
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

// waitingKind tells an approval (a tool call waits for a decision) from a
// question.
func waitingKind(st ahpwire.ChatState) string {
	if at := st.ActiveTurn; at != nil {
		for _, p := range at.ResponseParts {
			if p.Kind == ahpwire.PartToolCall && p.ToolCall != nil && p.ToolCall.WaitsForClient() {
				return picker.WaitApproval
			}
		}
	}
	return picker.WaitQuestion
}

// onWaitingProbed records what a read found.
func (m *Model) onWaitingProbed(msg waitingProbedMsg) tea.Cmd {
	delete(m.probing, msg.hs)
	m.picker.SetWaiting(msg.hs.Host, msg.hs.Session, msg.kind)
	return nil
}
