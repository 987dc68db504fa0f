package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
)

// update routes a message (Update, in extwire.go, wraps it). It performs
// no I/O: every effect is a tea.Cmd.
func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
		return m, nil
	case tea.FocusMsg:
		if m.notify != nil {
			m.notify.focused = true
		}
		return m, nil
	case tea.BlurMsg:
		if m.notify != nil {
			m.notify.focused = false
		}
		return m, nil
	case tea.BackgroundColorMsg:
		if m.c.autoTheme {
			m.setTheme(msg.IsDark())
		}
		return m, nil
	case connEventMsg:
		if msg.b != nil && msg.b != m.c.backend {
			return m, m.onWatchEvent(msg.b, msg.ev)
		}
		var cmd tea.Cmd
		if se, ok := msg.ev.(ahpclient.SnapshotEvent); ok && msg.chat != nil && m.chat != nil && m.chat.chat == se.Snapshot.Resource {
			cmd = m.onChatSnapshot(se.Snapshot.Resource, msg.chat.state, msg.chat.err)
		} else {
			cmd = m.handleEvent(msg.ev)
		}
		return m, tea.Batch(cmd, waitForEvent(m.c.ctx, m.c.backend))
	case connBatchMsg:
		return m, m.onBatch(msg) // stream_batch.go
	case pumpStoppedMsg:
		if msg.b != nil && msg.b != m.c.backend {
			return m, m.onWatchStopped(msg.b, msg.err)
		}
		if m.quitting {
			return m, tea.Quit
		}
		return m, m.setNotice("connection closed", true)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case historyLoadedMsg, historySavedMsg, historyPickedMsg:
		cmd, _ := m.onDailyMsg(msg)
		return m, cmd
	case clientCommandMsg:
		return m, m.runClientCommand(msg)
	case tea.MouseWheelMsg:
		if n := len(m.overlays); n > 0 {
			return m.wheelOverlay(msg)
		}
		return m.updateScreen(msg)
	case tea.PasteMsg:
		if n := len(m.overlays); n > 0 {
			return m.updateOverlay(msg)
		}
		return m.updateScreen(msg)
	case noticeMsg:
		return m, m.setNotice(msg.text, msg.isErr)
	case noticeExpiredMsg:
		if msg.id == m.noticeID {
			m.notice = ""
		}
		return m, nil
	case quitConfirmedMsg:
		m.quitting = true
		return m, tea.Quit
	case demoFaultMsg:
		return m, m.setNotice("demo: connection dropped", false)
	case promptGuardEndedMsg:
		return m, nil // redraw: the prompt's keys are live again
	case retryTickMsg:
		return m, m.onRetryTick(msg)
	case stallTickMsg:
		return m, m.onStallTick(msg)
	case retryNowMsg:
		return m, m.onRetryNow(msg)
	}
	if cmd, ok := m.onHostMsg(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.onConnect(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.handleSteer(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.handleIntent(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.handleResult(msg); ok {
		return m, cmd
	}
	return m.updateScreen(msg)
}

// escDebounce is how soon after an overlay closed an esc is taken as a
// repeat of the closing esc rather than as "cancel the turn".
const escDebounce = 500 * time.Millisecond

// handleKey: global keys first, then the top overlay, then the screen.
func (m Model) handleKey(k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	km := &m.c.km
	if m.typingTerminal() {
		return m.updateOverlay(k) // every key goes to the terminal, ctrl+c too
	}
	switch {
	case key.Matches(k, km.Global.Quit):
		if m.chat != nil && m.screen == screenChat && m.chat.state.Current != nil && !m.topIsConfirm() {
			m.overlays = append(m.overlays, newConfirm(km.Confirm, m.quitQuestion(), quitConfirmedMsg{}))
			return m, nil
		}
		m.quitting = true
		return m, tea.Quit
	case key.Matches(k, km.Global.Suspend):
		return m, tea.Suspend
	case key.Matches(k, km.Demo.DropConnection) && m.demoFault != nil:
		return m, runHook(m.demoFault)
	case key.Matches(k, km.Global.Reconnect) && m.conn.Phase == ahpclient.Reconnecting && m.c.backend != nil:
		return m, retryNow(m.c.backend)
	}
	if m.connecting.active {
		return m, nil // nothing to act on until connected
	}
	if cmd, ok := m.typeAhead(k); ok {
		return m, cmd
	}
	if len(m.overlays) > 0 {
		return m.updateOverlay(k)
	}
	if cmd, ok := m.extKey(k); ok {
		return m, cmd
	}
	if key.Matches(k, km.Global.Help) || m.helpKeyInTranscript(k) {
		var first []string
		if m.screen == screenPicker {
			first = []string{"Session picker"}
		}
		m.overlays = append(m.overlays, newHelpOverlay(*km, first...))
		return m, nil
	}
	if key.Matches(k, km.Chat.CancelTurn) && m.screen == screenChat && !m.overlayClosed.IsZero() &&
		m.c.now().Sub(m.overlayClosed) < escDebounce {
		// The esc that closed a prompt was pressed twice: the second one
		// must not cancel the turn behind it.
		m.overlayClosed = time.Time{}
		return m, nil
	}
	m.overlayClosed = time.Time{}
	m.lastTyped = m.c.now()
	if m.screen == screenChat && m.chat != nil {
		if cmd, ok := m.chatKey(k); ok {
			return m, cmd
		}
	}
	return m.updateScreen(k)
}

// quitQuestion asks before quitting during a turn, saying what happens to
// the turn: an embedded host (demo) stops with the app.
func (m *Model) quitQuestion() string {
	if m.c.hostStops {
		return "A turn is still running. Quit anyway? (the demo host stops, and the turn with it)"
	}
	return "A turn is still running. Quit anyway? (it keeps running on the host)"
}

// wheelOverlay scrolls a scrollable overlay (approval body, help) with the
// mouse wheel; other overlays ignore it, and the screen behind never scrolls.
func (m Model) wheelOverlay(w tea.MouseWheelMsg) (tea.Model, tea.Cmd) {
	switch m.overlays[len(m.overlays)-1].(type) {
	case *approvalPrompt, *helpOverlay:
	default:
		return m, nil
	}
	k := tea.KeyPressMsg{Code: tea.KeyDown}
	if w.Button == tea.MouseWheelUp {
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	} else if w.Button != tea.MouseWheelDown {
		return m, nil
	}
	var mm tea.Model = m
	for range wheelLines {
		mm, _ = mm.(Model).updateOverlay(k)
	}
	return mm, nil
}

func (m *Model) topIsConfirm() bool {
	if n := len(m.overlays); n > 0 {
		_, ok := m.overlays[n-1].(*confirmDialog)
		return ok
	}
	return false
}

// updateOverlay sends msg to the top overlay and pops it when it closes.
func (m Model) updateOverlay(msg tea.Msg) (tea.Model, tea.Cmd) {
	n := len(m.overlays)
	ov, cmd, res := m.overlays[n-1].Update(msg)
	m.overlays[n-1] = ov
	if res == resultClose {
		m.overlays = m.overlays[:n-1]
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.c.km.Chat.CancelTurn) {
			m.overlayClosed = m.c.now() // closed by esc: debounce the next esc
		}
	}
	return m, cmd
}

// updateScreen sends msg to the picker or the chat.
func (m Model) updateScreen(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.screen == screenChat && m.chat != nil {
		return m, m.chat.Update(msg)
	}
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	return m, cmd
}
