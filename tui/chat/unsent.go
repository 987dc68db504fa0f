package chat

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/uikit"
)

// unsentMsg is a message of the user that did not reach the chat: the chat
// could not load or is gone from the host, or the host refused it. It stays
// on screen (in the strip above the composer) until the user takes it into
// a new session with ctrl+n, which puts it into that chat's composer.
type unsentMsg struct {
	text string
	why  string
}

// AddUnsent records a message that did not reach the chat.
func (m *Model) AddUnsent(text, why string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	m.unsent = append(m.unsent, unsentMsg{text: text, why: why})
	m.Relayout()
}

// HoldUnsent takes the composer's draft as an unsent message instead of
// dispatching it into a chat that cannot receive it.
func (m *Model) HoldUnsent() tea.Cmd {
	text := m.Composer.Take()
	if strings.TrimSpace(text) == "" {
		return nil
	}
	m.AddUnsent(text, m.LoadErr)
	return uikit.Notice("not sent: "+m.LoadErr+" — "+m.c.KM.Chat.NewSession.Help().Key+" resends it in a new session", true)
}

// StrandOutbox moves the user's sends still waiting for this chat (held,
// sending or unconfirmed) to the unsent list: the chat is gone, so they
// would otherwise show "sending" forever.
func (m *Model) StrandOutbox(why string) {
	kept := m.outbox[:0]
	for _, e := range m.outbox {
		if t := SentText(e.Action); t != "" {
			m.unsent = append(m.unsent, unsentMsg{text: t, why: why})
			continue
		}
		kept = append(kept, e)
	}
	m.outbox = slices.Clip(kept)
	m.Relayout()
}

// TakeUnsent returns the unsent messages as one draft (blank-line
// separated) and forgets them.
func (m *Model) TakeUnsent() string {
	texts := make([]string, 0, len(m.unsent))
	for _, u := range m.unsent {
		texts = append(texts, u.text)
	}
	m.unsent = nil
	return strings.Join(texts, "\n\n")
}
