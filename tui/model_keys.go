package tui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/uikit"
)

// escDebounce is how soon after an overlay closed an esc is taken as a
// repeat of the closing esc rather than as "cancel the turn".
const escDebounce = 500 * time.Millisecond

// handleKey: global keys first, then the top overlay, then the screen:
// the chat's keys (chat_keys.go, then chat/update.go) or the picker's.
func (m *Model) handleKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.c.KM
	if m.typingTerminal() {
		return m.updateOverlay(k) // every key goes to the terminal, ctrl+c too
	}
	switch {
	case key.Matches(k, km.Global.Quit):
		if m.chat != nil && m.screen == screenChat && m.chat.State.Current != nil && !m.topIsConfirm() {
			m.overlays = append(m.overlays, dialog.NewConfirm(km.Confirm, m.quitQuestion(), app.QuitConfirmedMsg{}))
			return nil
		}
		m.quitting = true
		return tea.Quit
	case key.Matches(k, km.Global.Suspend):
		return tea.Suspend
	case key.Matches(k, km.Demo.DropConnection) && m.demoFault != nil:
		return app.RunHook(m.demoFault)
	case key.Matches(k, km.Global.Reconnect) && m.conn.Phase == ahpclient.Reconnecting && m.c.Backend != nil:
		return retryNow(m.c.Backend)
	}
	if m.connecting.active {
		return nil // nothing to act on until connected
	}
	if cmd, ok := m.typeAhead(k); ok { // quickstart.go
		return cmd
	}
	if len(m.overlays) > 0 {
		return m.updateOverlay(k)
	}
	if m.screen == screenChat && m.chat != nil && key.Matches(k, km.Chat.Changes, km.Chat.Terminals) {
		return m.openSideView(k) // changes_view.go, terminals.go
	}
	if m.screen == screenChat && m.chat != nil {
		if cmd, ok := m.noteKey(k); ok { // notes.go
			return cmd
		}
	}
	if key.Matches(k, km.Global.Help) || m.helpKeyInTranscript(k) {
		var first []string
		if m.screen == screenPicker {
			first = []string{"Session picker"}
		}
		m.overlays = append(m.overlays, dialog.NewHelp(*km, slashHelpGroup(), first...))
		return nil
	}
	if key.Matches(k, km.Chat.CancelTurn) && m.screen == screenChat && !m.overlayClosed.IsZero() &&
		m.c.Now().Sub(m.overlayClosed) < escDebounce {
		// The esc that closed a prompt was pressed twice: the second one
		// must not cancel the turn behind it.
		m.overlayClosed = time.Time{}
		return nil
	}
	m.overlayClosed = time.Time{}
	m.lastTyped = m.c.Now()
	if m.screen == screenChat && m.chat != nil {
		return m.chatKey(k) // chat_keys.go
	}
	return m.updateScreen(k)
}

// quitQuestion asks before quitting during a turn, saying what happens to
// the turn: a host in this process (the demo, or `ahptui --agent`'s) stops
// with the app.
func (m *Model) quitQuestion() string {
	if m.c.HostStops {
		return "A turn is still running. Quit anyway? (this ahptui's own host stops, and the turn with it)"
	}
	return "A turn is still running. Quit anyway? (it keeps running on the host)"
}

// wheelOverlay scrolls a scrollable overlay (approval body, help) with the
// mouse wheel; other overlays ignore it, and the screen behind never scrolls.
func (m *Model) wheelOverlay(w tea.MouseWheelMsg) tea.Cmd {
	switch m.overlays[len(m.overlays)-1].(type) {
	case *dialog.Approval, *dialog.Help:
	default:
		return nil
	}
	k := tea.KeyPressMsg{Code: tea.KeyDown}
	if w.Button == tea.MouseWheelUp {
		k = tea.KeyPressMsg{Code: tea.KeyUp}
	} else if w.Button != tea.MouseWheelDown {
		return nil
	}
	for range chat.WheelLines {
		m.updateOverlay(k)
	}
	return nil
}

func (m *Model) topIsConfirm() bool {
	if n := len(m.overlays); n > 0 {
		_, ok := m.overlays[n-1].(*dialog.Confirm)
		return ok
	}
	return false
}

// updateOverlay sends msg to the top overlay and pops it when it closes.
func (m *Model) updateOverlay(msg tea.Msg) tea.Cmd {
	n := len(m.overlays)
	ov, cmd, res := m.overlays[n-1].Update(msg)
	m.overlays[n-1] = ov
	if res == uikit.ResultClose {
		m.overlays = m.overlays[:n-1]
		if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.c.KM.Chat.CancelTurn) {
			m.overlayClosed = m.c.Now() // closed by esc: debounce the next esc
		}
	}
	return cmd
}

// updateScreen sends msg to the picker or the chat.
func (m *Model) updateScreen(msg tea.Msg) tea.Cmd {
	if m.screen == screenChat && m.chat != nil {
		return m.chat.Update(msg)
	}
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	return cmd
}

// openSideView opens the changes view or the terminal viewer from the chat.
func (m *Model) openSideView(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, m.c.KM.Chat.Changes) {
		return m.openChanges() // changes_view.go
	}
	return m.openTermViewer() // terminals.go
}
