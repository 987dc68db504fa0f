package tui

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
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
	status  string // progress set by the root ("opening…", "creating session…")
	note    string // the picker's own feedback, cleared by the next key
	helpKey string // the global help and quit keys, for the hint line
	quitKey string
	// reconnecting (set by the root) puts reconnectKey first in the hints.
	reconnecting bool
	reconnectKey string
	showArchived bool // list archived sessions too (picker_steer.go)
}

func newPicker(km keymap.Picker, now func() time.Time, st *Styles) picker {
	ti := newTextInput(st)
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

// Select moves the cursor to a session (the one the user just left), when
// the filter shows it.
func (p *picker) Select(resource string) {
	for i, m := range p.shown {
		if p.entries[m.Index].s.Resource == resource {
			p.cursor = i
			p.offset = p.visibleOffset()
			return
		}
	}
}

// SetAgents sets the agents offered for new sessions.
func (p *picker) SetAgents(a []ahpwire.AgentInfo) { p.agents = a }

// ChooseChat switches to choosing one of several chats of a session.
func (p *picker) ChooseChat(session string, chats []chatChoice) {
	p.mode, p.chats, p.chatIx, p.chatFor = pickChat, chats, 0, session
}

func makeEntry(s ahpwire.SessionSummary) pickerEntry {
	title := strings.ReplaceAll(render.Sanitize(firstNonEmpty(s.Title, "(untitled)")), "\n", " ")
	search := title + "  " + s.Provider
	if len(s.WorkingDirectories) > 0 {
		search += "  " + displayDir(s.WorkingDirectories[0])
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

// clearFilter empties the filter and shows every session again.
func (p *picker) clearFilter() {
	p.filter.SetValue("")
	p.refilter()
}

// refilter applies the filter to the entries.
func (p *picker) refilter() {
	pat := strings.TrimSpace(p.filter.Value())
	if pat == "" {
		p.shown = p.shown[:0]
		for i := range p.entries {
			if p.visible(p.entries[i]) {
				p.shown = append(p.shown, fuzzy.Match{Index: i})
			}
		}
	} else {
		src := make([]string, len(p.entries))
		for i, e := range p.entries {
			src[i] = e.search
		}
		p.shown = slices.DeleteFunc(fuzzy.Find(pat, src), func(m fuzzy.Match) bool { return !p.visible(p.entries[m.Index]) })
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
	if w, ok := msg.(tea.MouseWheelMsg); ok && p.mode == pickSession {
		switch w.Button {
		case tea.MouseWheelUp:
			p.cursor = max(0, p.cursor-1)
		case tea.MouseWheelDown:
			p.cursor = min(max(0, len(p.shown)-1), p.cursor+1)
		}
		p.offset = p.visibleOffset()
		return p, nil
	}
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
	p.note = ""
	if cmd, ok := p.steerKey(k); ok {
		return p, cmd
	}
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
		if len(p.entries) == 0 {
			p.note = "no session yet — " + p.km.New.Help().Key + " creates one"
		}
	case key.Matches(k, p.km.New):
		switch len(p.agents) {
		case 0:
			p.note = "the host offers no agents"
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
		p.clearFilter()
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
