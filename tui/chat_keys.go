package tui

import (
	"cmp"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/chat"
	"github.com/ahptui/ahptui/tui/dialog"
	"github.com/ahptui/ahptui/tui/picker"
	"github.com/ahptui/ahptui/tui/uikit"
)

// The chat screen's keys that reach past the focused pane, before the chat
// sees them: the keys people bring from Claude Code, Codex and crush
// (keymap/shortcuts.go: ctrl+x ctrl+e and ctrl+g for $EDITOR, ctrl+r for
// the prompt history, shift+tab for the session mode, end to follow the
// stream from an empty composer, esc to clear a draft), a new session with
// the same agent, paging the transcript while typing, and printable keys
// typed while the transcript has focus (they go to the composer instead of
// vanishing). The open lists and popups keep the shortcuts for themselves.

// chatKey handles those keys, then hands k to the chat (chat/update.go).
func (m *Model) chatKey(k tea.KeyPressMsg) tea.Cmd {
	c, km := m.chat, &m.c.KM
	inComposer := c.Focus == chat.FocusComposer
	shortcuts := !c.Extras.Modal() && !(inComposer && c.Extras.Completer.Open())
	chord := shortcuts && m.chordX // the key after ctrl+x
	m.chordX = false
	page := max(1, c.Transcript.Height-1)
	switch {
	case chord && key.Matches(k, km.Chord.Editor):
		return app.PrepareEditor(c.Composer.Expanded())
	case chord && key.Matches(k, km.Chord.Unqueue):
		if len(c.State.Queued) == 0 {
			return uikit.Notice("no queued message to remove", false)
		}
		return c.Unqueue()
	case chord && key.Matches(k, km.Chord.Cancel):
		return nil
	// After ctrl+x, any other key acts as usual.
	case shortcuts && inComposer && key.Matches(k, km.Composer.Unqueue):
		m.chordX = true
		return uikit.Notice("ctrl+x… "+km.Chord.Editor.Help().Key+" $EDITOR · "+km.Chord.Unqueue.Help().Key+" remove last queued", false)
	case shortcuts && inComposer && key.Matches(k, km.Composer.HistorySearch):
		query := c.Composer.Value()
		if c.Composer.Browsing() || strings.Contains(query, "\n") {
			query = ""
		}
		m.overlays = append(m.overlays, dialog.NewHistorySearch(km.HistorySearch, m.c.History.Entries, query, &m.c.Styles))
		return nil
	case shortcuts && inComposer && key.Matches(k, km.Composer.Follow) && c.Composer.Value() == "":
		c.Transcript.GotoBottom()
		return nil
	case shortcuts && inComposer && key.Matches(k, km.Chat.CancelTurn) && strings.TrimSpace(c.Composer.Value()) != "":
		c.Composer.Take() // kept in the history: ↑ brings it back
		c.Relayout()
		hint := "draft cleared — ↑ brings it back"
		if c.State.Current != nil {
			hint += " · esc again cancels the turn"
		}
		return uikit.Notice(hint, false)
	case shortcuts && key.Matches(k, km.Chat.CycleMode):
		return m.cycleMode() // session_settings.go
	case key.Matches(k, km.Chat.NewSession):
		return m.newSessionLikeThis()
	case inComposer && c.LoadErr != "" && key.Matches(k, km.Composer.Send):
		// The chat cannot receive it: keep it visibly, never send it into
		// the void (where it would show "sending" forever).
		return c.HoldUnsent()
	case inComposer && key.Matches(k, km.Composer.ScrollUp):
		c.Transcript.ScrollUp(page)
		return c.MaybeFetchOlder()
	case inComposer && key.Matches(k, km.Composer.ScrollDown):
		c.Transcript.ScrollDown(page)
		return nil
	case !inComposer && isTyping(k) && !boundInTranscript(km, k) && !c.Extras.Modal():
		focus := c.SetFocus(chat.FocusComposer)
		return tea.Batch(focus, c.HandleKey(k))
	}
	return c.HandleKey(k)
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
	ss := m.sessionState()
	var carry []string
	if text := m.chat.TakeUnsent(); text != "" {
		carry = append(carry, text)
	}
	if draft := m.chat.Composer.Take(); draft != "" {
		carry = append(carry, draft)
	}
	if len(carry) > 0 {
		m.carry = strings.Join(carry, "\n\n")
	}
	provider := m.chat.Agent
	if ss != nil {
		provider = cmp.Or(ss.Provider, provider)
	}
	if s, ok := m.picker.Session(m.chat.Session); ok && provider == "" {
		provider = s.Provider
	}
	leave := m.leaveChat()
	return tea.Batch(leave, uikit.Emit(picker.NewSessionMsg{Provider: provider}))
}

// helpKeyInTranscript reports whether k is the transcript's help key (?)
// while the transcript has focus (in the composer ? is text).
func (m *Model) helpKeyInTranscript(k tea.KeyPressMsg) bool {
	return m.screen == screenChat && m.chat != nil && m.chat.Focus == chat.FocusTranscript &&
		!m.chat.Extras.Modal() && key.Matches(k, m.c.KM.Transcript.Help)
}
