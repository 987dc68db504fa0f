package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/render"
)

// searchBar is the search input and its results.
type searchBar struct {
	in     textinput.Model
	typing bool
	query  string
	hits   []searchHit
	cur    int
	paging bool // fetching older turns so the search covers the whole chat
	// pagedFrom is the cursor of the last page asked for.
	pagedFrom string
}

// View renders the bar: input and the match count.
func (s *searchBar) View(st *Styles, width int) []string {
	count := "no matches"
	if len(s.hits) > 0 {
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.hits))
	}
	if s.paging {
		count += " · loading older turns…"
	}
	return []string{ansi.Truncate(s.in.View()+"  "+st.Dialog.Muted.Render(count+" · enter next · esc close"), max(1, width), "…")}
}

// openSearch opens the bar; older turns are paged in so that the search
// covers the whole chat.
func (m *chatModel) openSearch() tea.Cmd {
	m.x.search.typing = true
	m.x.search.in.SetValue(m.x.search.query)
	m.x.search.in.CursorEnd()
	m.relayout()
	cmds := []tea.Cmd{m.x.search.in.Focus()}
	if m.cursor != "" && !m.fetching {
		m.x.search.paging, m.fetching, m.x.search.pagedFrom = true, true, m.cursor
		cmds = append(cmds, fetchTurns(m.c.ctx, m.c.backend, m.chat, m.cursor))
	}
	return tea.Batch(cmds...)
}

// searchKey edits the query (searching as it changes) and moves between
// matches.
func (m *chatModel) searchKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.c.km.Search
	switch {
	case key.Matches(k, km.Close):
		m.x.search.typing = false
		m.x.search.in.Blur()
		m.relayout()
		m.tr.invalidateAll()
		return nil
	case key.Matches(k, km.Next):
		return m.stepSearch(+1)
	case key.Matches(k, km.Prev):
		return m.stepSearch(-1)
	}
	var cmd tea.Cmd
	m.x.search.in, cmd = m.x.search.in.Update(k)
	if q := m.x.search.in.Value(); q != m.x.search.query {
		m.x.search.query = q
		return tea.Batch(cmd, m.runSearch(true))
	}
	return cmd
}

// runSearch recomputes the matches; jump moves to the first one.
func (m *chatModel) runSearch(jump bool) tea.Cmd {
	s := &m.x.search
	s.hits = searchMessages(m.itemCount(), m.messageAt, s.query)
	s.cur = 0
	m.tr.invalidateAll()
	if len(s.hits) == 0 || !jump {
		return nil
	}
	m.gotoHit(s.hits[0])
	return nil
}

// stepSearch moves to the next (dir=+1) or previous match.
func (m *chatModel) stepSearch(dir int) tea.Cmd {
	s := &m.x.search
	if s.query == "" {
		return notice("no search — "+m.c.km.Chat.Search.Help().Key+" searches", false)
	}
	if len(s.hits) == 0 {
		return notice("no matches for "+strconv.Quote(s.query), false)
	}
	s.cur = (s.cur + dir + len(s.hits)) % len(s.hits)
	m.gotoHit(s.hits[s.cur])
	return nil
}

// gotoHit expands the matching block (so the match is visible even when
// it was collapsed) and scrolls to its first matching line.
func (m *chatModel) gotoHit(h searchHit) {
	if h.index >= 0 {
		k := render.BlockKey{MessageID: h.msgID, Index: h.index}
		if !m.expanded[k] {
			m.expanded[k] = true
			m.tr.invalidate(h.item)
		}
	}
	m.tr.layout()
	if h.item >= len(m.tr.items) {
		return
	}
	sec, line := m.tr.lineOf(h.item, m.x.search.query)
	m.tr.reveal(h.item, sec, line)
}

// decorate highlights the search query in the visible transcript lines.
func (s *searchBar) decorate(view string, st *Styles) string {
	if s.query == "" || len(s.hits) == 0 {
		return view
	}
	sty := st.Picker.Match.Reverse(true)
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = highlightLine(l, s.query, sty)
	}
	return strings.Join(lines, "\n")
}
