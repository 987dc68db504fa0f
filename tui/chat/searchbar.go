package chat

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/reducer"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// searchBar is the search input and its results.
type searchBar struct {
	in     textinput.Model
	typing bool
	Query  string
	Hits   []SearchHit
	cur    int
	Paging bool // fetching older turns so the search covers the whole chat
	// pagedFrom is the cursor of the last page asked for.
	pagedFrom string

	// The running search (see search_job.go).
	Run     *SearchRun         // nil when none runs
	Running bool               // slices are still being matched
	snap    []*reducer.Message // the chat's messages when the search began
	next    int                // first message of snap not yet handed out
	lq      string             // the running search's query, lower case
	jump    bool               // jump to the first hit when it arrives
	read    pageReader         // reads the chat's content-reference pages (in commands)

	// Content-reference pages: how many the search reads, how many it
	// has looked at, how many could not be read.
	pages, PagesDone, Failed int

	// settle is the last hit jumped to in a content-reference page (nil:
	// none); the jump is redone when content loads (the page itself, or
	// pages above it that grow), until the user scrolls away (the anchor
	// is no longer at) or the search changes (search_reveal.go).
	settle *SearchHit
	at     tpos
}

// Cancel stops the running search; whatever it still reports is dropped.
func (s *searchBar) Cancel() {
	if s.Run != nil {
		s.Run.stopRun()
	}
	s.Running, s.snap, s.read, s.Run, s.settle = false, nil, nil, nil, nil
}

// View renders the bar: input and the match count (or the progress).
func (s *searchBar) View(st *uikit.Styles, width int) []string {
	count := "no matches"
	switch {
	case s.Running && s.pages > 0:
		count = "searching… page " + strconv.Itoa(s.PagesDone) + "/" + strconv.Itoa(s.pages) + " · " + strconv.Itoa(len(s.Hits)) + " hits"
		if len(s.Hits) > 0 {
			count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.Hits)) + " · " + count
		}
	case s.Running && len(s.Hits) > 0:
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.Hits)) + " · searching…"
	case s.Running:
		count = "searching… 0 hits"
	case len(s.Hits) > 0:
		count = strconv.Itoa(s.cur+1) + "/" + strconv.Itoa(len(s.Hits))
	}
	if s.Failed > 0 {
		count += " · " + uikit.Plural(s.Failed, "page") + " could not be searched"
	}
	if s.Paging {
		count += " · loading older turns…"
	}
	tail := count + " · enter next · esc close"
	if s.in.Value() == "" && s.Query == "" && !s.Running {
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
func (m *Model) openSearch() tea.Cmd {
	m.Extras.Search.typing = true
	m.Extras.Search.in.SetValue(m.Extras.Search.Query)
	m.Extras.Search.in.CursorEnd()
	m.Relayout()
	cmds := []tea.Cmd{m.Extras.Search.in.Focus()}
	if m.Cursor != "" && !m.Fetching {
		m.Extras.Search.Paging, m.Fetching, m.Extras.Search.pagedFrom = true, true, m.Cursor
		cmds = append(cmds, app.FetchTurns(m.c.Ctx, m.c.Backend, m.URI, m.Cursor))
	}
	if m.Extras.Search.Query != "" {
		cmds = append(cmds, m.RunSearch(false))
	}
	return tea.Batch(cmds...)
}

// searchKey edits the query (searching as it changes) and moves between
// matches.
func (m *Model) searchKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.c.KM.Search
	switch {
	case key.Matches(k, km.Close):
		m.Extras.Search.typing = false
		m.Extras.Search.Cancel()
		m.Extras.Search.in.Blur()
		m.Relayout()
		m.Transcript.InvalidateAll()
		return nil
	case key.Matches(k, km.Next):
		return m.stepSearch(+1)
	case key.Matches(k, km.Prev):
		return m.stepSearch(-1)
	}
	var cmd tea.Cmd
	m.Extras.Search.in, cmd = m.Extras.Search.in.Update(k)
	if q := m.Extras.Search.in.Value(); q != m.Extras.Search.Query {
		m.Extras.Search.Query = q
		return tea.Batch(cmd, m.RunSearch(true))
	}
	return cmd
}

// RunSearch cancels the running search and starts one for the query over
// the whole loaded chat; jump moves to the first hit when it is found.
// Nothing here is proportional to the chat's text: the matching runs in
// commands (searchTask), which report hits as they find them. While older
// turns are paged in, content-reference pages are not read: the search
// run when paging ends reads them (once).
func (m *Model) RunSearch(jump bool) tea.Cmd {
	s := &m.Extras.Search
	s.Cancel()
	s.Hits, s.cur, s.pages, s.PagesDone, s.Failed = nil, 0, 0, 0, 0
	q := strings.ToLower(strings.TrimSpace(s.Query))
	if q == "" {
		return nil
	}
	s.snap = m.AllMessages()
	if !s.Paging { // while older turns come in, pages wait for the search that follows
		var cached map[string]string
		if m.c.Channels != nil {
			cached = m.c.Channels.Loader.Texts()
		}
		s.read = RefSource(m.c.Backend, cached)
		s.pages = CountSearchRefs(s.snap)
	}
	s.lq, s.jump, s.Running, s.next, s.Run = q, jump, true, 0, NewSearchRun(m.c.Ctx)
	return m.nextSearchBatch()
}

// nextSearchBatch hands the next batch of messages to a command, or ends
// the search when every message was looked at.
func (m *Model) nextSearchBatch() tea.Cmd {
	s := &m.Extras.Search
	if s.next >= len(s.snap) {
		s.Running, s.snap, s.read = false, nil, nil
		s.Run.stopRun() // releases its context; every slice has ended
		return nil
	}
	var docs []searchDoc
	docs, s.next = CaptureDocs(s.snap, s.next)
	return (&SearchTask{Run: s.Run, Query: s.lq, Docs: docs, Read: s.read}).cmd()
}

// searchFound applies one slice's hits, if it belongs to the running
// search, and goes on with the search.
func (m *Model) searchFound(msg SearchFoundMsg) tea.Cmd {
	s := &m.Extras.Search
	if msg.run != s.Run || !s.Running {
		return nil // a cancelled search: its hits are stale
	}
	s.Hits = append(s.Hits, msg.Hits...)
	s.PagesDone += msg.Pages
	s.Failed += msg.Failed
	if s.jump && len(s.Hits) > 0 {
		s.jump = false
		m.gotoHit(s.Hits[0])
	}
	if msg.Rest != nil {
		return msg.Rest.cmd()
	}
	return m.nextSearchBatch()
}

// stepSearch moves to the next (dir=+1) or previous match.
func (m *Model) stepSearch(dir int) tea.Cmd {
	s := &m.Extras.Search
	if s.Query == "" {
		return uikit.Notice("no search — "+m.c.KM.Chat.Search.Help().Key+" searches", false)
	}
	if len(s.Hits) == 0 {
		if s.Running {
			return uikit.Notice("still searching for "+strconv.Quote(s.Query), false)
		}
		return uikit.Notice("no matches for "+strconv.Quote(s.Query), false)
	}
	s.jump = false
	s.cur = (s.cur + dir + len(s.Hits)) % len(s.Hits)
	m.gotoHit(s.Hits[s.cur])
	return nil
}

// itemOf is the transcript item of message msg, or -1 when the chat no
// longer holds it.
func (m *Model) itemOf(msg *reducer.Message) int {
	for i := m.itemCount() - 1; i >= 0; i-- {
		if m.MessageAt(i) == msg {
			return i
		}
	}
	return -1
}

// gotoHit expands the matching block (so the match is visible even when
// it was collapsed) and scrolls to its matching line.
func (m *Model) gotoHit(h SearchHit) {
	m.Extras.Search.settle = nil
	item := m.itemOf(h.Msg)
	if item < 0 {
		return
	}
	if h.index >= 0 {
		k := render.BlockKey{MessageID: h.msgID, Index: h.index}
		if !m.expanded[k] {
			m.expanded[k] = true
			m.Transcript.Invalidate(item)
		}
	}
	m.Transcript.Layout()
	if item >= len(m.Transcript.Items) {
		return
	}
	if h.Ref != "" && m.revealPage(item, h) {
		return
	}
	sec, line := m.Transcript.LineNear(item, m.Extras.Search.Query, h.Frac)
	m.Transcript.reveal(item, sec, line)
}

// decorate highlights the search query in the visible transcript lines.
func (s *searchBar) decorate(view string, st *uikit.Styles) string {
	if s.Query == "" || len(s.Hits) == 0 {
		return view
	}
	sty := st.Picker.Match.Reverse(true)
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		lines[i] = HighlightLine(l, s.Query, sty)
	}
	return strings.Join(lines, "\n")
}
