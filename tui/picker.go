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
	"github.com/ahptui/ahptui/tui/uikit"
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
	// openSessionMsg asks to attach to a session; Host names the
	// configured host it lives on ("" = the attached host).
	openSessionMsg struct{ Session, Host string }
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
	host   string // the configured host it lives on ("" or picker.here: attached)
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
	showArchived bool // list archived sessions too (picker_actions.go)
	// here is the attached host's name; hosts, when set, groups the list by
	// host (picker_hosts.go).
	here   string
	hosts  []hostHeader
	noHost bool // no host is attached yet (opened on the inbox alone)
	// moved is set once the user moved the cursor: until then, grouped, it
	// stays on the first row while hosts' lists arrive (else it follows its
	// session).
	moved bool
}

func newPicker(km keymap.Picker, now func() time.Time, st *uikit.Styles) picker {
	ti := uikit.NewTextInput(st)
	ti.Prompt = "filter › "
	ti.Placeholder = "type to search sessions"
	ti.Focus()
	p := picker{km: km, filter: ti, now: now}
	p.refilter()
	return p
}

// SetSize sets the picker's area.
func (p *picker) SetSize(w, h int) { p.width, p.height = w, h; p.filter.SetWidth(max(10, w-12)) }

// SetSessions replaces the attached host's list (listSessions result).
func (p *picker) SetSessions(items []ahpwire.SessionSummary) { p.SetHostSessions(p.here, items) }

// SetHostSessions replaces one host's list.
func (p *picker) SetHostSessions(host string, items []ahpwire.SessionSummary) {
	p.entries = slices.DeleteFunc(p.entries, func(e pickerEntry) bool { return e.host == host })
	for _, s := range items {
		p.entries = append(p.entries, makeEntry(host, s))
	}
	if host == p.here {
		p.loaded = true
	}
	p.sortAndFilter()
}

// Upsert adds or replaces one session of a host (root/sessionAdded).
func (p *picker) Upsert(host string, s ahpwire.SessionSummary) {
	for i := range p.entries {
		if p.entries[i].host == host && p.entries[i].s.Resource == s.Resource {
			p.entries[i] = makeEntry(host, s)
			p.sortAndFilter()
			return
		}
	}
	p.entries = append(p.entries, makeEntry(host, s))
	p.sortAndFilter()
}

// Change applies a partial summary (root/sessionSummaryChanged).
func (p *picker) Change(host, resource string, ch ahpwire.PartialSessionSummary) {
	for i := range p.entries {
		if p.entries[i].host == host && p.entries[i].s.Resource == resource {
			p.entries[i] = makeEntry(host, ch.Apply(p.entries[i].s))
			p.sortAndFilter()
			return
		}
	}
}

// Remove drops a session of a host (root/sessionRemoved).
func (p *picker) Remove(host, resource string) {
	p.entries = slices.DeleteFunc(p.entries, func(e pickerEntry) bool { return e.host == host && e.s.Resource == resource })
	p.sortAndFilter()
}

// Session returns a session summary of the attached host by resource.
func (p *picker) Session(resource string) (ahpwire.SessionSummary, bool) {
	return p.HostSession(p.here, resource)
}

// HostSession returns a session summary of a host by resource.
func (p *picker) HostSession(host, resource string) (ahpwire.SessionSummary, bool) {
	for _, e := range p.entries {
		if e.host == host && e.s.Resource == resource {
			return e.s, true
		}
	}
	return ahpwire.SessionSummary{}, false
}

// hostSessions returns the session summaries of a host by resource (one
// walk of the list, for comparing a whole new list with it).
func (p *picker) hostSessions(host string) map[string]ahpwire.SessionSummary {
	out := map[string]ahpwire.SessionSummary{}
	for _, e := range p.entries {
		if _, seen := out[e.s.Resource]; e.host == host && !seen {
			out[e.s.Resource] = e.s // the first, as HostSession finds
		}
	}
	return out
}

// Select moves the cursor to a session (the one the user just left), when
// the filter shows it.
func (p *picker) Select(resource string) {
	for i, m := range p.shown {
		if e := p.entries[m.Index]; e.host == p.here && e.s.Resource == resource {
			p.cursor, p.moved = i, true
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

func makeEntry(host string, s ahpwire.SessionSummary) pickerEntry {
	title := strings.ReplaceAll(render.Sanitize(cmp.Or(s.Title, "(untitled)")), "\n", " ")
	search := title + "  " + s.Provider
	if len(s.WorkingDirectories) > 0 {
		search += "  " + displayDir(s.WorkingDirectories[0])
	}
	if host != "" {
		search += "  @" + host
	}
	return pickerEntry{host: host, s: s, title: title, search: render.Sanitize(search)}
}

func (p *picker) sortAndFilter() {
	selHost, sel := p.selected()
	grouped := p.grouped()
	slices.SortStableFunc(p.entries, func(a, b pickerEntry) int {
		if grouped {
			// The inbox: hosts in file order, and in each host the
			// sessions that need the user first.
			if c := cmp.Compare(p.hostIndex(a.host), p.hostIndex(b.host)); c != 0 {
				return c
			}
			if c := cmp.Compare(needRank(a.s), needRank(b.s)); c != 0 {
				return c
			}
		}
		return cmp.Compare(parseTime(b.s.ModifiedAt).UnixMilli(), parseTime(a.s.ModifiedAt).UnixMilli())
	})
	p.refilter()
	if !p.moved && grouped {
		p.cursor = 0
		return
	}
	for i, m := range p.shown {
		if e := p.entries[m.Index]; e.host == selHost && e.s.Resource == sel {
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
		p.groupShown()
	}
	p.cursor = min(max(0, p.cursor), max(0, len(p.shown)-1))
}

func (p *picker) selectedResource() string {
	_, r := p.selected()
	return r
}

// selected is the host and resource under the cursor ("" when none).
func (p *picker) selected() (host, resource string) {
	if p.cursor >= 0 && p.cursor < len(p.shown) && p.shown[p.cursor].Index < len(p.entries) {
		e := p.entries[p.shown[p.cursor].Index]
		return e.host, e.s.Resource
	}
	return "", ""
}

// Update handles keys; printable keys edit the filter.
func (p picker) Update(msg tea.Msg) (picker, tea.Cmd) {
	if w, ok := msg.(tea.MouseWheelMsg); ok && p.mode == pickSession {
		p.moved = true
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
	if key.Matches(k, p.km.ShowArchived, p.km.Rename, p.km.Archive, p.km.ToggleRead) {
		cmd := p.sessionActionKey(k) // picker_actions.go
		return p, cmd
	}
	if key.Matches(k, p.km.Up, p.km.Down, p.km.PageUp, p.km.PageDn) {
		p.moved = true
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
		if h, r := p.selected(); r != "" {
			return p, uikit.Emit(openSessionMsg{Session: r, Host: p.hostOf(h)})
		}
		if len(p.entries) == 0 {
			p.note = "no session yet — " + p.km.New.Help().Key + " creates one"
		}
	case key.Matches(k, p.km.New):
		switch len(p.agents) {
		case 0:
			if p.noHost {
				p.note = "no host is connected yet"
				break
			}
			p.note = "the host offers no agents"
		case 1:
			return p, uikit.Emit(newSessionMsg{Provider: p.agents[0].Provider})
		default:
			p.mode, p.agentIx = pickAgent, 0
		}
	case key.Matches(k, p.km.Dispose):
		if p.otherHost() {
			return p, nil
		}
		if r := p.selectedResource(); r != "" {
			return p, uikit.Emit(disposeRequestMsg{Session: r, Title: p.entries[p.shown[p.cursor].Index].title})
		}
	case key.Matches(k, p.km.Refresh):
		return p, uikit.Emit(refreshSessionsMsg{})
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
		return p, uikit.Emit(newSessionMsg{Provider: p.agents[p.agentIx].Provider})
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
		return p, uikit.Emit(openChatMsg{Session: p.chatFor, Chat: p.chats[p.chatIx].Resource})
	case key.Matches(k, p.km.ClearFilter):
		p.mode = pickSession
	}
	return p, nil
}
