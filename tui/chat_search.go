package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
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

	// The running search (see search_job.go).
	run     *searchRun         // nil when none runs
	running bool               // slices are still being matched
	snap    []*reducer.Message // the chat's messages when the search began
	next    int                // first message of snap not yet handed out
	lq      string             // the running search's query, lower case
	jump    bool               // jump to the first hit when it arrives
	read    pageReader         // reads the chat's content-reference pages (in commands)

	// Content-reference pages: how many the search reads, how many it
	// has looked at, how many could not be read.
	pages, pagesDone, failed int

	// settle is the last hit jumped to in a content-reference page (nil:
	// none); the jump is redone when content loads (the page itself, or
	// pages above it that grow), until the user scrolls away (the anchor
	// is no longer at) or the search changes (search_reveal.go).
	settle *searchHit
	at     tpos
}

// cancel stops the running search; whatever it still reports is dropped.
func (s *searchBar) cancel() {
	if s.run != nil {
		s.run.stopRun()
	}
	s.running, s.snap, s.read, s.run, s.settle = false, nil, nil, nil, nil
}

// View renders the bar: input and the match count (or the progress).
func (s *searchBar) View(st *uikit.Styles, width int) []string {
	count := "no matches"
	switch {
	case s.running && s.pages > 0:
		count = "searching… page " + strconv.Itoa(s.pagesDone) + "/" + strconv.Itoa(s.pages) + " · " + strconv.Itoa(len(s.hits)) + " hits"
		if len(s.hits) > 0 {
			count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.hits)) + " · " + count
		}
	case s.running && len(s.hits) > 0:
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.hits)) + " · searching…"
	case s.running:
		count = "searching… 0 hits"
	case len(s.hits) > 0:
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.hits))
	}
	if s.failed > 0 {
		count += " · " + uikit.Plural(s.failed, "page") + " could not be searched"
	}
	if s.paging {
		count += " · loading older turns…"
	}
	tail := count + " · enter next · esc close"
	if s.in.Value() == "" && s.query == "" && !s.running {
		tail = "esc close" // nothing searched yet: no "no matches"
	}
	// The input is as wide as its text (or its placeholder), so that the
	// placeholder is never cut to one cell.
	w := max(ansi.StringWidth(s.in.Value()), ansi.StringWidth(s.in.Placeholder)) + 1
	s.in.SetWidth(max(1, min(w, width-ansi.StringWidth(s.in.Prompt)-ansi.StringWidth(tail)-3)))
	return []string{ansi.Truncate(s.in.View()+"  "+st.Dialog.Muted.Render(tail), max(1, width), "…")}
}

// openSearch opens the bar; older turns are paged in so that the search
// covers the whole chat. A search that was cut short by closing the bar
// runs again.
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
	if m.x.search.query != "" {
		cmds = append(cmds, m.runSearch(false))
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
		m.x.search.cancel()
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

// runSearch cancels the running search and starts one for the query over
// the whole loaded chat; jump moves to the first hit when it is found.
// Nothing here is proportional to the chat's text: the matching runs in
// commands (searchTask), which report hits as they find them. While older
// turns are paged in, content-reference pages are not read: the search
// run when paging ends reads them (once).
func (m *chatModel) runSearch(jump bool) tea.Cmd {
	s := &m.x.search
	s.cancel()
	s.hits, s.cur, s.pages, s.pagesDone, s.failed = nil, 0, 0, 0, 0
	q := strings.ToLower(strings.TrimSpace(s.query))
	if q == "" {
		return nil
	}
	s.snap = m.allMessages()
	if !s.paging { // while older turns come in, pages wait for the search that follows
		var cached map[string]string
		if m.c.ext != nil {
			cached = m.c.ext.loader.Texts()
		}
		s.read = refSource(m.c.backend, cached)
		s.pages = countSearchRefs(s.snap)
	}
	s.lq, s.jump, s.running, s.next, s.run = q, jump, true, 0, newSearchRun(m.c.ctx)
	return m.nextSearchBatch()
}

// nextSearchBatch hands the next batch of messages to a command, or ends
// the search when every message was looked at.
func (m *chatModel) nextSearchBatch() tea.Cmd {
	s := &m.x.search
	if s.next >= len(s.snap) {
		s.running, s.snap, s.read = false, nil, nil
		s.run.stopRun() // releases its context; every slice has ended
		return nil
	}
	var docs []searchDoc
	docs, s.next = captureDocs(s.snap, s.next)
	return (&searchTask{run: s.run, query: s.lq, docs: docs, read: s.read}).cmd()
}

// searchFound applies one slice's hits, if it belongs to the running
// search, and goes on with the search.
func (m *chatModel) searchFound(msg searchFoundMsg) tea.Cmd {
	s := &m.x.search
	if msg.run != s.run || !s.running {
		return nil // a cancelled search: its hits are stale
	}
	s.hits = append(s.hits, msg.hits...)
	s.pagesDone += msg.pages
	s.failed += msg.failed
	if s.jump && len(s.hits) > 0 {
		s.jump = false
		m.gotoHit(s.hits[0])
	}
	if msg.rest != nil {
		return msg.rest.cmd()
	}
	return m.nextSearchBatch()
}

// stepSearch moves to the next (dir=+1) or previous match.
func (m *chatModel) stepSearch(dir int) tea.Cmd {
	s := &m.x.search
	if s.query == "" {
		return uikit.Notice("no search — "+m.c.km.Chat.Search.Help().Key+" searches", false)
	}
	if len(s.hits) == 0 {
		if s.running {
			return uikit.Notice("still searching for "+strconv.Quote(s.query), false)
		}
		return uikit.Notice("no matches for "+strconv.Quote(s.query), false)
	}
	s.jump = false
	s.cur = (s.cur + dir + len(s.hits)) % len(s.hits)
	m.gotoHit(s.hits[s.cur])
	return nil
}

// itemOf is the transcript item of message msg, or -1 when the chat no
// longer holds it.
func (m *chatModel) itemOf(msg *reducer.Message) int {
	for i := m.itemCount() - 1; i >= 0; i-- {
		if m.messageAt(i) == msg {
			return i
		}
	}
	return -1
}

// gotoHit expands the matching block (so the match is visible even when
// it was collapsed) and scrolls to its matching line.
func (m *chatModel) gotoHit(h searchHit) {
	m.x.search.settle = nil
	item := m.itemOf(h.msg)
	if item < 0 {
		return
	}
	if h.index >= 0 {
		k := render.BlockKey{MessageID: h.msgID, Index: h.index}
		if !m.expanded[k] {
			m.expanded[k] = true
			m.tr.invalidate(item)
		}
	}
	m.tr.layout()
	if item >= len(m.tr.items) {
		return
	}
	if h.ref != "" && m.revealPage(item, h) {
		return
	}
	sec, line := m.tr.lineNear(item, m.x.search.query, h.frac)
	m.tr.reveal(item, sec, line)
}

// decorate highlights the search query in the visible transcript lines.
func (s *searchBar) decorate(view string, st *uikit.Styles) string {
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
