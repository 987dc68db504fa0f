package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/render"
)

// pickerMode is what the picker is choosing.
type pickerMode int

const (
	pickSession pickerMode = iota // the session list
	pickAgent                     // the agent for a new session
	pickChat                      // one chat of a session with several
)

// Intents the picker hands to the root.
type (
	// openSessionMsg asks to attach to a session.
	openSessionMsg struct{ Session string }
	// newSessionMsg asks to create a session with an agent.
	newSessionMsg struct{ Provider string }
	// disposeRequestMsg asks the root to confirm disposing a session.
	disposeRequestMsg struct{ Session, Title string }
	// openChatMsg asks to open one chat of a session.
	openChatMsg struct{ Session, Chat string }
	// refreshSessionsMsg asks for a fresh listSessions.
	refreshSessionsMsg struct{}
)

// pickerEntry is one session with its precomputed search text.
type pickerEntry struct {
	s      ahpwire.SessionSummary
	title  string // sanitised
	search string // title, agent and directory, for fuzzy matching
}

// chatChoice is one chat offered in pickChat mode.
type chatChoice struct{ Resource, Title string }

// picker is the session picker: a live, fuzzy-filtered list.
type picker struct {
	km      keymap.Picker
	entries []pickerEntry // newest first
	agents  []ahpwire.AgentInfo
	filter  textinput.Model
	shown   []fuzzy.Match // filtered view; Index points into entries
	cursor  int
	offset  int
	mode    pickerMode
	agentIx int
	chats   []chatChoice
	chatIx  int
	chatFor string
	width   int
	height  int
	now     func() time.Time
	loaded  bool
	status  string // transient note (errors, "creating…")
}

func newPicker(km keymap.Picker, now func() time.Time) picker {
	ti := newTextInput()
	ti.Prompt = "filter › "
	ti.Placeholder = "type to search sessions"
	ti.Focus()
	p := picker{km: km, filter: ti, now: now}
	p.refilter()
	return p
}

// SetSize sets the picker's area.
func (p *picker) SetSize(w, h int) { p.width, p.height = w, h; p.filter.SetWidth(max(10, w-12)) }

// SetSessions replaces the list (listSessions result).
func (p *picker) SetSessions(items []ahpwire.SessionSummary) {
	p.entries = p.entries[:0]
	for _, s := range items {
		p.entries = append(p.entries, makeEntry(s))
	}
	p.loaded = true
	p.sortAndFilter()
}

// Upsert adds or replaces one session (root/sessionAdded, summary changes).
func (p *picker) Upsert(s ahpwire.SessionSummary) {
	for i := range p.entries {
		if p.entries[i].s.Resource == s.Resource {
			p.entries[i] = makeEntry(s)
			p.sortAndFilter()
			return
		}
	}
	p.entries = append(p.entries, makeEntry(s))
	p.sortAndFilter()
}

// Change applies a partial summary (root/sessionSummaryChanged).
func (p *picker) Change(resource string, ch ahpwire.PartialSessionSummary) {
	for i := range p.entries {
		if p.entries[i].s.Resource == resource {
			p.entries[i] = makeEntry(ch.Apply(p.entries[i].s))
			p.sortAndFilter()
			return
		}
	}
}

// Remove drops a session (root/sessionRemoved).
func (p *picker) Remove(resource string) {
	p.entries = slices.DeleteFunc(p.entries, func(e pickerEntry) bool { return e.s.Resource == resource })
	p.sortAndFilter()
}

// Session returns a session summary by resource.
func (p *picker) Session(resource string) (ahpwire.SessionSummary, bool) {
	for _, e := range p.entries {
		if e.s.Resource == resource {
			return e.s, true
		}
	}
	return ahpwire.SessionSummary{}, false
}

// SetAgents sets the agents offered for new sessions.
func (p *picker) SetAgents(a []ahpwire.AgentInfo) { p.agents = a }

// ChooseChat switches to choosing one of several chats of a session.
func (p *picker) ChooseChat(session string, chats []chatChoice) {
	p.mode, p.chats, p.chatIx, p.chatFor = pickChat, chats, 0, session
}

func makeEntry(s ahpwire.SessionSummary) pickerEntry {
	title := render.Sanitize(firstNonEmpty(s.Title, "(untitled)"))
	search := title + "  " + s.Provider
	if len(s.WorkingDirectories) > 0 {
		search += "  " + s.WorkingDirectories[0]
	}
	return pickerEntry{s: s, title: title, search: render.Sanitize(search)}
}

func (p *picker) sortAndFilter() {
	sel := p.selectedResource()
	slices.SortStableFunc(p.entries, func(a, b pickerEntry) int {
		return cmp.Compare(parseTime(b.s.ModifiedAt).UnixMilli(), parseTime(a.s.ModifiedAt).UnixMilli())
	})
	p.refilter()
	for i, m := range p.shown {
		if p.entries[m.Index].s.Resource == sel {
			p.cursor = i
		}
	}
}

func (p *picker) refilter() {
	pat := strings.TrimSpace(p.filter.Value())
	if pat == "" {
		p.shown = p.shown[:0]
		for i := range p.entries {
			p.shown = append(p.shown, fuzzy.Match{Index: i})
		}
	} else {
		src := make([]string, len(p.entries))
		for i, e := range p.entries {
			src[i] = e.search
		}
		p.shown = fuzzy.Find(pat, src)
	}
	p.cursor = min(max(0, p.cursor), max(0, len(p.shown)-1))
}

func (p *picker) selectedResource() string {
	if p.cursor >= 0 && p.cursor < len(p.shown) && p.shown[p.cursor].Index < len(p.entries) {
		return p.entries[p.shown[p.cursor].Index].s.Resource
	}
	return ""
}

func emit(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

// Update handles keys; printable keys edit the filter.
func (p picker) Update(msg tea.Msg) (picker, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		if _, paste := msg.(tea.PasteMsg); paste {
			p.refilter()
		}
		return p, cmd
	}
	switch p.mode {
	case pickAgent:
		return p.updateAgent(k)
	case pickChat:
		return p.updateChat(k)
	}
	p, cmd := p.updateList(k, msg)
	p.offset = p.visibleOffset()
	return p, cmd
}

func (p picker) updateList(k tea.KeyPressMsg, msg tea.Msg) (picker, tea.Cmd) {
	switch {
	case key.Matches(k, p.km.Up):
		p.cursor = max(0, p.cursor-1)
	case key.Matches(k, p.km.Down):
		p.cursor = min(max(0, len(p.shown)-1), p.cursor+1)
	case key.Matches(k, p.km.PageUp):
		p.cursor = max(0, p.cursor-p.rows())
	case key.Matches(k, p.km.PageDn):
		p.cursor = min(max(0, len(p.shown)-1), p.cursor+p.rows())
	case key.Matches(k, p.km.Open):
		if r := p.selectedResource(); r != "" {
			return p, emit(openSessionMsg{Session: r})
		}
	case key.Matches(k, p.km.New):
		switch len(p.agents) {
		case 0:
			p.status = "the host offers no agents"
		case 1:
			return p, emit(newSessionMsg{Provider: p.agents[0].Provider})
		default:
			p.mode, p.agentIx = pickAgent, 0
		}
	case key.Matches(k, p.km.Dispose):
		if r := p.selectedResource(); r != "" {
			return p, emit(disposeRequestMsg{Session: r, Title: p.entries[p.shown[p.cursor].Index].title})
		}
	case key.Matches(k, p.km.Refresh):
		return p, emit(refreshSessionsMsg{})
	case key.Matches(k, p.km.ClearFilter):
		p.filter.SetValue("")
		p.refilter()
	default:
		var cmd tea.Cmd
		before := p.filter.Value()
		p.filter, cmd = p.filter.Update(msg)
		if p.filter.Value() != before {
			p.cursor = 0
			p.refilter()
		}
		return p, cmd
	}
	return p, nil
}

func (p picker) updateAgent(k tea.KeyPressMsg) (picker, tea.Cmd) {
	switch {
	case key.Matches(k, p.km.Up, p.km.AgentPrev):
		p.agentIx = max(0, p.agentIx-1)
	case key.Matches(k, p.km.Down, p.km.AgentNext):
		p.agentIx = min(len(p.agents)-1, p.agentIx+1)
	case key.Matches(k, p.km.Open):
		p.mode = pickSession
		return p, emit(newSessionMsg{Provider: p.agents[p.agentIx].Provider})
	case key.Matches(k, p.km.ClearFilter):
		p.mode = pickSession
	}
	return p, nil
}

func (p picker) updateChat(k tea.KeyPressMsg) (picker, tea.Cmd) {
	switch {
	case key.Matches(k, p.km.Up):
		p.chatIx = max(0, p.chatIx-1)
	case key.Matches(k, p.km.Down):
		p.chatIx = min(len(p.chats)-1, p.chatIx+1)
	case key.Matches(k, p.km.Open):
		p.mode = pickSession
		return p, emit(openChatMsg{Session: p.chatFor, Chat: p.chats[p.chatIx].Resource})
	case key.Matches(k, p.km.ClearFilter):
		p.mode = pickSession
	}
	return p, nil
}

// visibleOffset is the first list row shown: the stored offset moved just
// enough to keep the cursor visible.
func (p *picker) visibleOffset() int {
	rows, off := p.rows(), p.offset
	if p.cursor < off {
		off = p.cursor
	}
	if p.cursor >= off+rows {
		off = p.cursor - rows + 1
	}
	return max(0, min(off, len(p.shown)-rows))
}

// rows is the number of list rows that fit.
func (p *picker) rows() int { return max(1, p.height-4) }

// View draws the picker (height lines).
func (p *picker) View(st *Styles) string {
	var lines []string
	switch p.mode {
	case pickAgent:
		lines = append(lines, st.Picker.Title.Render("New session — choose an agent"), "")
		for i, a := range p.agents {
			lines = append(lines, p.choiceLine(st, i == p.agentIx, render.Sanitize(firstNonEmpty(a.DisplayName, a.Provider)),
				render.Sanitize(a.Description)))
		}
		lines = append(lines, "", st.Picker.Meta.Render("enter create · esc back"))
		return p.pad(lines)
	case pickChat:
		lines = append(lines, st.Picker.Title.Render("This session has several chats — pick one"), "")
		for i, c := range p.chats {
			lines = append(lines, p.choiceLine(st, i == p.chatIx, render.Sanitize(firstNonEmpty(c.Title, c.Resource)), ""))
		}
		lines = append(lines, "", st.Picker.Meta.Render("enter open · esc back"))
		return p.pad(lines)
	}
	head := st.Picker.Title.Render("Sessions") + st.Picker.Meta.Render(fmt.Sprintf("  %d", len(p.entries)))
	if p.status != "" {
		head += "  " + st.Picker.Meta.Render(p.status)
	}
	lines = append(lines, head, p.filter.View(), "")
	rows := p.rows()
	offset := p.visibleOffset()
	switch {
	case !p.loaded:
		lines = append(lines, st.Picker.Empty.Render("  loading sessions…"))
	case len(p.entries) == 0:
		lines = append(lines, st.Picker.Empty.Render("  no sessions yet — ctrl+n creates one"))
	case len(p.shown) == 0:
		lines = append(lines, st.Picker.Empty.Render("  no session matches the filter"))
	}
	for i := offset; i < len(p.shown) && i < offset+rows; i++ {
		lines = append(lines, p.row(st, p.shown[i], i == p.cursor))
	}
	return p.pad(lines)
}

func (p *picker) choiceLine(st *Styles, sel bool, label, desc string) string {
	cur, sty := "  ", st.Picker.Item
	if sel {
		cur, sty = "› ", st.Picker.Selected
	}
	l := cur + sty.Render(label)
	if desc != "" {
		l += st.Picker.Meta.Render("  " + desc)
	}
	return ansi.Truncate(l, p.width, "…")
}

func (p *picker) row(st *Styles, m fuzzy.Match, sel bool) string {
	e := p.entries[m.Index]
	icon, isty := statusIcon(st, e.s.Status)
	cur, tsty := "  ", st.Picker.Item
	if sel {
		cur, tsty = "› ", st.Picker.Selected
	}
	title := highlight(e.title, m.MatchedIndexes, tsty, st.Picker.Match)
	meta := "  " + e.s.Provider + " · " + relTime(p.now(), parseTime(e.s.ModifiedAt))
	if len(e.s.WorkingDirectories) > 0 {
		meta += " · " + render.Sanitize(e.s.WorkingDirectories[0])
	}
	return ansi.Truncate(cur+isty.Render(icon)+" "+title+st.Picker.Meta.Render(meta), p.width, "…")
}

func (p *picker) pad(lines []string) string {
	for len(lines) < p.height {
		lines = append(lines, "")
	}
	return strings.Join(lines[:min(len(lines), max(p.height, 1))], "\n")
}

// highlight styles the matched byte offsets of s (offsets beyond s, from the
// agent or directory part of the search text, are ignored).
func highlight(s string, idx []int, base, match interface{ Render(...string) string }) string {
	if len(idx) == 0 {
		return base.Render(s)
	}
	set := make(map[int]bool, len(idx))
	for _, i := range idx {
		set[i] = true
	}
	var b strings.Builder
	run, runMatch := strings.Builder{}, false
	flush := func() {
		if run.Len() == 0 {
			return
		}
		if runMatch {
			b.WriteString(match.Render(run.String()))
		} else {
			b.WriteString(base.Render(run.String()))
		}
		run.Reset()
	}
	for i, r := range s {
		if set[i] != runMatch {
			flush()
			runMatch = set[i]
		}
		run.WriteRune(r)
	}
	flush()
	return b.String()
}

func statusIcon(st *Styles, s ahpwire.SessionStatus) (string, interface{ Render(...string) string }) {
	switch {
	case s.Activity() == ahpwire.StatusInputNeeded:
		return "?", st.Picker.IconBusy
	case s.Activity() == ahpwire.StatusInProgress:
		return "●", st.Picker.IconBusy
	case s.Activity() == ahpwire.StatusError:
		return "✗", st.Picker.IconError
	}
	return "○", st.Picker.Icon
}

// parseTime reads an ISO-8601 or epoch-millisecond timestamp (zero if neither).
func parseTime(ts ahpwire.Timestamp) time.Time {
	s := string(ts)
	if s == "" {
		return time.Time{}
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms)
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t
	}
	return time.Time{}
}

// relTime formats how long ago t was ("just now", "5m ago", "3d ago").
func relTime(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Format("2006-01-02")
}
