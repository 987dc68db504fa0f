package tui

import (
	"encoding/json"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpwire"
)

// The keys people bring from Claude Code, Codex and crush (keymap/shortcuts.go):
// ctrl+x ctrl+e and ctrl+g for $EDITOR, ctrl+r for the prompt history,
// shift+tab for the session mode, end to follow the stream from an empty
// composer, esc to clear a draft, ? for help in the transcript.

// dailyChatKey handles those keys on the chat screen before the chat sees
// them; ok reports whether it did.
func (m *Model) dailyChatKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	c, km := m.chat, &m.c.km
	if c.x.modal() || (c.focus == focusComposer && c.x.compl.Open()) {
		m.chordX = false
		return nil, false
	}
	if m.chordX {
		m.chordX = false
		switch {
		case key.Matches(k, km.Chord.Editor):
			return prepareEditor(c.comp.Expanded()), true
		case key.Matches(k, km.Chord.Unqueue):
			if len(c.state.Queued) == 0 {
				return notice("no queued message to remove", false), true
			}
			return c.unqueue(), true
		case key.Matches(k, km.Chord.Cancel):
			return nil, true
		}
		// Any other key acts as usual.
	}
	inComposer := c.focus == focusComposer
	switch {
	case inComposer && key.Matches(k, km.Composer.Unqueue):
		m.chordX = true
		return notice("ctrl+x… "+km.Chord.Editor.Help().Key+" $EDITOR · "+km.Chord.Unqueue.Help().Key+" remove last queued", false), true
	case inComposer && key.Matches(k, km.Composer.HistorySearch):
		query := c.comp.Value()
		if c.comp.browsing() || strings.Contains(query, "\n") {
			query = ""
		}
		m.overlays = append(m.overlays, newHistorySearch(km.HistorySearch, m.c.hist.entries, query, &m.c.styles))
		return nil, true
	case inComposer && key.Matches(k, km.Composer.Follow) && c.comp.Value() == "":
		c.tr.GotoBottom()
		return nil, true
	case inComposer && key.Matches(k, km.Chat.CancelTurn) && strings.TrimSpace(c.comp.Value()) != "":
		c.comp.Take() // kept in the history: ↑ brings it back
		c.relayout()
		hint := "draft cleared — ↑ brings it back"
		if c.state.Current != nil {
			hint += " · esc again cancels the turn"
		}
		return notice(hint, false), true
	case key.Matches(k, km.Chat.CycleMode):
		return m.cycleMode(), true
	}
	return nil, false
}

// helpKeyInTranscript reports whether k is the transcript's help key (?)
// while the transcript has focus (in the composer ? is text).
func (m *Model) helpKeyInTranscript(k tea.KeyPressMsg) bool {
	return m.screen == screenChat && m.chat != nil && m.chat.focus == focusTranscript &&
		!m.chat.x.modal() && key.Matches(k, m.c.km.Transcript.Help)
}

// modeProperty finds the session's mode setting: the mutable enum property
// named "mode", else the first whose name contains "mode".
func modeProperty(cfg *ahpwire.ConfigState) (string, ahpwire.SessionConfigPropertySchema, bool) {
	if cfg == nil {
		return "", ahpwire.SessionConfigPropertySchema{}, false
	}
	schema, err := ahpwire.DecodeSessionConfigSchema(cfg.Schema)
	if err != nil {
		return "", ahpwire.SessionConfigPropertySchema{}, false
	}
	usable := func(p ahpwire.SessionConfigPropertySchema) bool {
		return p.SessionMutable && !p.ReadOnly && len(p.Enum) > 1
	}
	if p, ok := schema.Properties["mode"]; ok && usable(p) {
		return "mode", p, true
	}
	for _, name := range schema.Keys() {
		if p := schema.Properties[name]; strings.Contains(strings.ToLower(name), "mode") && usable(p) {
			return name, p, true
		}
	}
	return "", ahpwire.SessionConfigPropertySchema{}, false
}

// cycleMode switches the session to the next value of its mode setting
// (shift+tab, /mode).
func (m *Model) cycleMode() tea.Cmd {
	if m.session == nil || m.chat == nil {
		return nil
	}
	name, p, ok := modeProperty(m.session.Config)
	if !ok {
		return m.setNotice("this session has no mode to switch", false)
	}
	cur := string(m.session.Config.Values[name])
	next := 0
	for i, v := range p.Enum {
		if string(v) == cur {
			next = (i + 1) % len(p.Enum)
		}
	}
	return m.setMode(name, p, next)
}

// setMode dispatches mode value i of property name.
func (m *Model) setMode(name string, p ahpwire.SessionConfigPropertySchema, i int) tea.Cmd {
	v := p.Enum[i]
	label := strings.Trim(string(v), `"`)
	if i < len(p.EnumLabels) && p.EnumLabels[i] != "" {
		label = p.EnumLabels[i]
	}
	a := &ahpwire.SessionConfigChanged{Config: map[string]json.RawMessage{name: v}}
	return tea.Batch(dispatch(m.c.ctx, m.c.backend, m.chat.session, a, "change the session mode"),
		m.setNotice("mode: "+label, false))
}

// onDailyMsg handles the messages of the prompt history.
func (m *Model) onDailyMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case historyLoadedMsg:
		if msg.err != nil {
			m.c.log.Warn("prompt history", "err", msg.err)
		}
		m.c.hist.loaded(msg.entries)
		if m.chat != nil && m.chat.comp.Value() == "" {
			m.c.hist.seedComposer(&m.chat.comp)
		}
		return nil, true
	case historySavedMsg:
		if msg.err != nil {
			m.c.log.Warn("prompt history", "err", msg.err)
		}
		return nil, true
	case historyPickedMsg:
		if m.chat == nil {
			return nil, true
		}
		m.chat.comp.SetDraft(msg.text)
		m.chat.relayout()
		return m.chat.setFocus(focusComposer), true
	}
	return nil, false
}
