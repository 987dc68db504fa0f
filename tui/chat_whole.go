package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/uikit"
)

// wholeAction is what runs once every turn of the chat is loaded.
type wholeAction int

const (
	wholeNone   wholeAction = iota
	wholeCopy               // copy the whole chat as markdown
	wholeExport             // export the whole chat to a markdown file
)

// wholePager pages older turns in (fetchTurns) before copying or exporting
// the chat, so that both see the whole chat and not only the loaded window,
// as search does.
type wholePager struct {
	action    wholeAction
	pagedFrom string // the cursor of the last page asked for
}

// wholeChat runs action on the whole chat: at once when every turn is
// loaded, else after paging the older turns in.
func (m *chatModel) wholeChat(action wholeAction) tea.Cmd {
	if m.cursor == "" {
		return m.runWhole(action)
	}
	if m.fetching || m.x.whole.action != wholeNone {
		return uikit.Notice("still loading earlier turns — try again in a moment", false)
	}
	m.x.whole = wholePager{action: action, pagedFrom: m.cursor}
	m.fetching = true
	return tea.Batch(fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor),
		uikit.Notice("loading the whole chat first…", false))
}

// wholeFetched continues paging after a page arrived; when the host has no
// older turns left (or stops moving the cursor) it runs the action. A
// failed page stops with a visible error and does nothing partial.
func (m *chatModel) wholeFetched(msg turnsFetchedMsg) tea.Cmd {
	m.fetching = false
	action := m.x.whole.action
	if msg.err != nil {
		m.x.whole = wholePager{}
		return uikit.Notice(fmt.Sprintf("could not load the whole chat: %s", errText(msg.err)), true)
	}
	if m.cursor != "" && m.cursor != m.x.whole.pagedFrom {
		m.fetching, m.x.whole.pagedFrom = true, m.cursor
		return fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor)
	}
	m.x.whole = wholePager{}
	return m.runWhole(action)
}

// runWhole copies or exports the loaded messages.
func (m *chatModel) runWhole(action wholeAction) tea.Cmd {
	switch action {
	case wholeCopy, wholeExport:
		var cached map[string]string
		if m.c.ext != nil {
			cached = m.c.ext.loader.Texts()
		}
		if action == wholeCopy {
			return copyWithRefsCmd(m.c.ctx, m.c.backend, cached, m.title, m.allMessages())
		}
		return exportWithRefsCmd(m.c.ctx, m.c.backend, cached, "", exportFileName(m.title, m.c.now()), m.title, m.allMessages())
	}
	return nil
}
