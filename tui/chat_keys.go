package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/keymap"
)

// chatKey handles the chat-screen keys that reach past the focused pane,
// before the chat sees them: a new session with the same agent, paging the
// transcript while typing, and printable keys typed while the transcript
// has focus (they go to the composer instead of vanishing). It reports
// whether it handled k.
func (m *Model) chatKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	c := m.chat
	km := &m.c.km
	page := max(1, c.tr.height-1)
	if cmd, ok := m.dailyChatKey(k); ok {
		return cmd, true
	}
	switch {
	case key.Matches(k, km.Chat.NewSession):
		return m.newSessionLikeThis(), true
	case c.focus == focusComposer && c.loadErr != "" && key.Matches(k, km.Composer.Send):
		// The chat cannot receive it: keep it visibly, never send it into
		// the void (where it would show "sending" forever).
		return c.holdUnsent(), true
	case c.focus == focusComposer && key.Matches(k, km.Composer.ScrollUp):
		c.tr.ScrollUp(page)
		return c.maybeFetchOlder(), true
	case c.focus == focusComposer && key.Matches(k, km.Composer.ScrollDown):
		c.tr.ScrollDown(page)
		return nil, true
	case c.focus == focusTranscript && isTyping(k) && !boundInTranscript(km, k) && !c.x.modal():
		focus := c.setFocus(focusComposer)
		return tea.Batch(focus, c.Update(k)), true
	}
	return nil, false
}

// isTyping reports whether k types text (no ctrl or alt).
func isTyping(k tea.KeyPressMsg) bool {
	return k.Text != "" && k.Mod&^tea.ModShift == 0
}

// boundInTranscript reports whether k means something while the transcript
// has focus.
func boundInTranscript(km *keymap.KeyMap, k tea.KeyPressMsg) bool {
	t, c := &km.Transcript, &km.Chat
	return key.Matches(k, t.Up, t.Down, t.PageUp, t.PageDown, t.HalfUp, t.HalfDown, t.Top, t.Bottom,
		t.PrevBlock, t.NextBlock, t.ToggleBlock, t.Copy, t.CopyCode,
		t.Search, t.SearchNext, t.SearchPrev, t.CopyMessage, t.CopyAll, t.Export, t.TermUp, t.TermDown,
		c.CancelTurn, c.SwitchFocus, c.CycleThinking, c.Resume, c.Resend, c.OpenPrompt, c.Sessions, c.NewSession, t.Help)
}

// newSessionLikeThis leaves the chat and creates a session with the agent
// of the chat's session (the picker shows the progress, as for ctrl+n
// there). Messages that did not reach the chat, and the draft, go along:
// they fill the new chat's composer, ready to send.
func (m *Model) newSessionLikeThis() tea.Cmd {
	var carry []string
	if text := m.chat.takeUnsent(); text != "" {
		carry = append(carry, text)
	}
	if draft := m.chat.comp.Take(); draft != "" {
		carry = append(carry, draft)
	}
	if len(carry) > 0 {
		m.carry = strings.Join(carry, "\n\n")
	}
	provider := ""
	if m.session != nil {
		provider = m.session.Provider
	}
	if s, ok := m.picker.Session(m.chat.session); ok && provider == "" {
		provider = s.Provider
	}
	leave := m.leaveChat()
	return tea.Batch(leave, emit(newSessionMsg{Provider: provider}))
}
