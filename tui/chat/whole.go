package chat

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// wholeAction is what runs once every turn of the chat is loaded.
type wholeAction int

const (
	wholeNone   wholeAction = iota
	wholeCopy               // copy the whole chat as markdown
	WholeExport             // export the whole chat to a markdown file
)

// wholePager pages older turns in (fetchTurns) before copying or exporting
// the chat, so that both see the whole chat and not only the loaded window,
// as search does.
type wholePager struct {
	action    wholeAction
	pagedFrom string // the cursor of the last page asked for
}

// WholeChat runs action on the whole chat: at once when every turn is
// loaded, else after paging the older turns in.
func (m *Model) WholeChat(action wholeAction) tea.Cmd {
	if m.Cursor == "" {
		return m.runWhole(action)
	}
	if m.Fetching || m.Extras.whole.action != wholeNone {
		return uikit.Notice("still loading earlier turns — try again in a moment", false)
	}
	m.Extras.whole = wholePager{action: action, pagedFrom: m.Cursor}
	m.Fetching = true
	return tea.Batch(app.FetchTurns(m.c.Ctx, m.c.Backend, m.URI, m.Cursor),
		uikit.Notice("loading the whole chat first…", false))
}

// wholeFetched continues paging after a page arrived; when the host has no
// older turns left (or stops moving the cursor) it runs the action. A
// failed page stops with a visible error and does nothing partial.
func (m *Model) wholeFetched(msg app.TurnsFetchedMsg) tea.Cmd {
	m.Fetching = false
	action := m.Extras.whole.action
	if msg.Err != nil {
		m.Extras.whole = wholePager{}
		return uikit.Notice(fmt.Sprintf("could not load the whole chat: %s", app.ErrText(msg.Err)), true)
	}
	if m.Cursor != "" && m.Cursor != m.Extras.whole.pagedFrom {
		m.Fetching, m.Extras.whole.pagedFrom = true, m.Cursor
		return app.FetchTurns(m.c.Ctx, m.c.Backend, m.URI, m.Cursor)
	}
	m.Extras.whole = wholePager{}
	return m.runWhole(action)
}

// runWhole copies or exports the loaded messages.
func (m *Model) runWhole(action wholeAction) tea.Cmd {
	switch action {
	case wholeCopy, WholeExport:
		var cached map[string]string
		if m.c.Channels != nil {
			cached = m.c.Channels.Loader.Texts()
		}
		if action == wholeCopy {
			return CopyWithRefsCmd(m.c.Ctx, m.c.Backend, cached, m.Title, m.AllMessages())
		}
		return ExportWithRefsCmd(m.c.Ctx, m.c.Backend, cached, "", ExportFileName(m.Title, m.c.Now()), m.Title, m.AllMessages())
	}
	return nil
}
