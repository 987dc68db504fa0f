package picker

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
	"github.com/ahptui/ahptui/tui/app"
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
	// OpenSessionMsg asks to attach to a session; Host names the
	// configured host it lives on ("" = the attached host).
	OpenSessionMsg struct{ Session, Host string }
	// NewSessionMsg asks to create a session with an agent.
	NewSessionMsg struct{ Provider string }
	// DisposeRequestMsg asks the root to confirm disposing a session.
	DisposeRequestMsg struct{ Session, Title string }
	// OpenChatMsg asks to open one chat of a session.
	OpenChatMsg struct{ Session, Chat string }
	// RefreshSessionsMsg asks for a fresh listSessions.
	RefreshSessionsMsg struct{}
)

// pickerEntry is one session with its precomputed search text.
type pickerEntry struct {
	Host    string // the configured host it lives on ("" or picker.here: attached)
	Summary ahpwire.SessionSummary
	title   string // sanitised
	search  string // title, agent and directory, for fuzzy matching
}

// ChatChoice is one chat offered in pickChat mode.
type ChatChoice struct{ Resource, Title string }

// Model is the session picker: a live, fuzzy-filtered list.
type Model struct {
	KM      keymap.Picker
	Entries []pickerEntry // newest first
	Agents  []ahpwire.AgentInfo
	Filter  textinput.Model
	Shown   []fuzzy.Match // filtered view; Index points into entries
	Cursor  int
	offset  int
	mode    pickerMode
	agentIx int
	chats   []ChatChoice
	chatIx  int
	chatFor string
	width   int
	height  int
	now     func() time.Time
	Loaded  bool
	Status  string // progress set by the root ("opening…", "creating session…")
	note    string // the picker's own feedback, cleared by the next key
	HelpKey string // the global help and quit keys, for the hint line
	QuitKey string
	// Reconnecting (set by the root) puts reconnectKey first in the hints.
	Reconnecting bool
	ReconnectKey string
	showArchived bool // list archived sessions too (actions.go)
	// Here is the attached host's name; hosts, when set, groups the list by
	// host (hosts.go).
	Here   string
	hosts  []HostHeader
	NoHost bool // no host is attached yet (opened on the inbox alone)
	// waiting is what the sessions that need the user wait for (inbox.go).
	waiting map[HostSession]string
	// moved is set once the user moved the cursor: until then, grouped, it
	// stays on the first row while hosts' lists arrive (else it follows its
	// session).
	moved bool
}

// New makes the picker with its keys, clock and styles.
func New(km keymap.Picker, now func() time.Time, st *uikit.Styles) Model {
	ti := uikit.NewTextInput(st)
	ti.Prompt = "filter › "
	ti.Placeholder = "type to search sessions"
	ti.Focus()
	p := Model{KM: km, Filter: ti, now: now}
	p.refilter()
	return p
}

// SetSize sets the picker's area.
func (p *Model) SetSize(w, h int) { p.width, p.height = w, h; p.Filter.SetWidth(max(10, w-12)) }

// SetSessions replaces the attached host's list (listSessions result).
func (p *Model) SetSessions(items []ahpwire.SessionSummary) { p.SetHostSessions(p.Here, items) }

// SetHostSessions replaces one host's list.
func (p *Model) SetHostSessions(host string, items []ahpwire.SessionSummary) {
	p.Entries = slices.DeleteFunc(p.Entries, func(e pickerEntry) bool { return e.Host == host })
	for _, s := range items {
		p.Entries = append(p.Entries, makeEntry(host, s))
	}
	if host == p.Here {
		p.Loaded = true
	}
	p.sortAndFilter()
}

// Upsert adds or replaces one session of a host (root/sessionAdded).
func (p *Model) Upsert(host string, s ahpwire.SessionSummary) {
	for i := range p.Entries {
		if p.Entries[i].Host == host && p.Entries[i].Summary.Resource == s.Resource {
			p.Entries[i] = makeEntry(host, s)
			p.sortAndFilter()
			return
		}
	}
	p.Entries = append(p.Entries, makeEntry(host, s))
	p.sortAndFilter()
}

// Change applies a partial summary (root/sessionSummaryChanged).
func (p *Model) Change(host, resource string, ch ahpwire.PartialSessionSummary) {
	for i := range p.Entries {
		if p.Entries[i].Host == host && p.Entries[i].Summary.Resource == resource {
			p.Entries[i] = makeEntry(host, ch.Apply(p.Entries[i].Summary))
			p.sortAndFilter()
			return
		}
	}
}

// Remove drops a session of a host (root/sessionRemoved).
func (p *Model) Remove(host, resource string) {
	p.Entries = slices.DeleteFunc(p.Entries, func(e pickerEntry) bool { return e.Host == host && e.Summary.Resource == resource })
	p.sortAndFilter()
}

// Session returns a session summary of the attached host by resource.
func (p *Model) Session(resource string) (ahpwire.SessionSummary, bool) {
	return p.HostSession(p.Here, resource)
}

// HostSession returns a session summary of a host by resource.
func (p *Model) HostSession(host, resource string) (ahpwire.SessionSummary, bool) {
	for _, e := range p.Entries {
		if e.Host == host && e.Summary.Resource == resource {
			return e.Summary, true
		}
	}
	return ahpwire.SessionSummary{}, false
}

// HostSessions returns the session summaries of a host by resource (one
// walk of the list, for comparing a whole new list with it).
func (p *Model) HostSessions(host string) map[string]ahpwire.SessionSummary {
	out := map[string]ahpwire.SessionSummary{}
	for _, e := range p.Entries {
		if _, seen := out[e.Summary.Resource]; e.Host == host && !seen {
			out[e.Summary.Resource] = e.Summary // the first, as HostSession finds
		}
	}
	return out
}

// Select moves the cursor to a session (the one the user just left), when
// the filter shows it.
func (p *Model) Select(resource string) {
	for i, m := range p.Shown {
		if e := p.Entries[m.Index]; e.Host == p.Here && e.Summary.Resource == resource {
			p.Cursor, p.moved = i, true
			p.offset = p.visibleOffset()
			return
		}
	}
}

// SetAgents sets the agents offered for new sessions.
func (p *Model) SetAgents(a []ahpwire.AgentInfo) { p.Agents = a }

// ChooseChat switches to choosing one of several chats of a session.
func (p *Model) ChooseChat(session string, chats []ChatChoice) {
	p.mode, p.chats, p.chatIx, p.chatFor = pickChat, chats, 0, session
}

func makeEntry(host string, s ahpwire.SessionSummary) pickerEntry {
	title := strings.ReplaceAll(render.Sanitize(cmp.Or(s.Title, "(untitled)")), "\n", " ")
	search := title + "  " + s.Provider
	if len(s.WorkingDirectories) > 0 {
		search += "  " + app.DisplayDir(s.WorkingDirectories[0])
	}
	if host != "" {
		search += "  @" + host
	}
	return pickerEntry{Host: host, Summary: s, title: title, search: render.Sanitize(search)}
}

func (p *Model) sortAndFilter() {
	selHost, sel := p.Selected()
	grouped := p.grouped()
	slices.SortStableFunc(p.Entries, func(a, b pickerEntry) int {
		if grouped {
			// The inbox: hosts in file order, and in each host the
			// sessions that need the user first.
			if c := cmp.Compare(p.hostIndex(a.Host), p.hostIndex(b.Host)); c != 0 {
				return c
			}
			if c := cmp.Compare(needRank(a.Summary), needRank(b.Summary)); c != 0 {
				return c
			}
		}
		return cmp.Compare(parseTime(b.Summary.ModifiedAt).UnixMilli(), parseTime(a.Summary.ModifiedAt).UnixMilli())
	})
	p.refilter()
	if !p.moved && grouped {
		p.Cursor = 0
		return
	}
	for i, m := range p.Shown {
		if e := p.Entries[m.Index]; e.Host == selHost && e.Summary.Resource == sel {
			p.Cursor = i
		}
	}
}

// ClearFilter empties the filter and shows every session again.
func (p *Model) ClearFilter() {
	p.Filter.SetValue("")
	p.refilter()
}

// listCommands are the slash commands that ask for this list (the
// chat's /resume opens it when no turn can be resumed): typed into its
// filter, by a user who started where the docs say "/resume after quitting
// finds earlier chats", they show every session instead of none.
var listCommands = []string{"/resume", "/sessions"}

// refilter applies the filter to the entries.
func (p *Model) refilter() {
	pat := strings.TrimSpace(p.Filter.Value())
	if slices.Contains(listCommands, pat) {
		pat = ""
	}
	if pat == "" {
		p.Shown = p.Shown[:0]
		for i := range p.Entries {
			if p.visible(p.Entries[i]) {
				p.Shown = append(p.Shown, fuzzy.Match{Index: i})
			}
		}
	} else {
		src := make([]string, len(p.Entries))
		for i, e := range p.Entries {
			src[i] = e.search
		}
		p.Shown = slices.DeleteFunc(fuzzy.Find(pat, src), func(m fuzzy.Match) bool { return !p.visible(p.Entries[m.Index]) })
		p.groupShown()
	}
	p.Cursor = min(max(0, p.Cursor), max(0, len(p.Shown)-1))
}

// SelectedResource is the selected row's session or chat URI ("" if none).
func (p *Model) SelectedResource() string {
	_, r := p.Selected()
	return r
}

// Selected is the host and resource under the cursor ("" when none).
func (p *Model) Selected() (host, resource string) {
	if p.Cursor >= 0 && p.Cursor < len(p.Shown) && p.Shown[p.Cursor].Index < len(p.Entries) {
		e := p.Entries[p.Shown[p.Cursor].Index]
		return e.Host, e.Summary.Resource
	}
	return "", ""
}

// Update handles keys; printable keys edit the filter.
func (p Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if w, ok := msg.(tea.MouseWheelMsg); ok && p.mode == pickSession {
		p.moved = true
		switch w.Button {
		case tea.MouseWheelUp:
			p.Cursor = max(0, p.Cursor-1)
		case tea.MouseWheelDown:
			p.Cursor = min(max(0, len(p.Shown)-1), p.Cursor+1)
		}
		p.offset = p.visibleOffset()
		return p, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.Filter, cmd = p.Filter.Update(msg)
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

func (p Model) updateList(k tea.KeyPressMsg, msg tea.Msg) (Model, tea.Cmd) {
	p.note = ""
	if key.Matches(k, p.KM.ShowArchived, p.KM.Rename, p.KM.Archive, p.KM.ToggleRead) {
		cmd := p.sessionActionKey(k) // actions.go
		return p, cmd
	}
	if key.Matches(k, p.KM.Up, p.KM.Down, p.KM.PageUp, p.KM.PageDn) {
		p.moved = true
	}
	switch {
	case key.Matches(k, p.KM.Up):
		p.Cursor = max(0, p.Cursor-1)
	case key.Matches(k, p.KM.Down):
		p.Cursor = min(max(0, len(p.Shown)-1), p.Cursor+1)
	case key.Matches(k, p.KM.PageUp):
		p.Cursor = max(0, p.Cursor-p.rows())
	case key.Matches(k, p.KM.PageDn):
		p.Cursor = min(max(0, len(p.Shown)-1), p.Cursor+p.rows())
	case key.Matches(k, p.KM.Open):
		if h, r := p.Selected(); r != "" {
			return p, uikit.Emit(OpenSessionMsg{Session: r, Host: p.hostOf(h)})
		}
		if len(p.Entries) == 0 {
			p.note = "no session yet — " + p.KM.New.Help().Key + " creates one"
		}
	case key.Matches(k, p.KM.New):
		switch len(p.Agents) {
		case 0:
			if p.NoHost {
				p.note = "no host is connected yet"
				break
			}
			p.note = "the host offers no agents"
		case 1:
			return p, uikit.Emit(NewSessionMsg{Provider: p.Agents[0].Provider})
		default:
			p.mode, p.agentIx = pickAgent, 0
		}
	case key.Matches(k, p.KM.Dispose):
		if p.otherHost() {
			return p, nil
		}
		if r := p.SelectedResource(); r != "" {
			return p, uikit.Emit(DisposeRequestMsg{Session: r, Title: p.Entries[p.Shown[p.Cursor].Index].title})
		}
	case key.Matches(k, p.KM.NextNeeding):
		p.nextNeeding() // inbox.go
	case key.Matches(k, p.KM.Peek):
		if h, r := p.Selected(); r != "" {
			return p, uikit.Emit(PeekMsg{Session: r, Host: p.hostOf(h)})
		}
	case key.Matches(k, p.KM.Refresh):
		return p, uikit.Emit(RefreshSessionsMsg{})
	case key.Matches(k, p.KM.ClearFilter):
		p.ClearFilter()
	default:
		var cmd tea.Cmd
		before := p.Filter.Value()
		p.Filter, cmd = p.Filter.Update(msg)
		if p.Filter.Value() != before {
			p.Cursor = 0
			p.refilter()
		}
		return p, cmd
	}
	return p, nil
}

func (p Model) updateAgent(k tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(k, p.KM.Up, p.KM.AgentPrev):
		p.agentIx = max(0, p.agentIx-1)
	case key.Matches(k, p.KM.Down, p.KM.AgentNext):
		p.agentIx = min(len(p.Agents)-1, p.agentIx+1)
	case key.Matches(k, p.KM.Open):
		p.mode = pickSession
		return p, uikit.Emit(NewSessionMsg{Provider: p.Agents[p.agentIx].Provider})
	case key.Matches(k, p.KM.ClearFilter):
		p.mode = pickSession
	}
	return p, nil
}

func (p Model) updateChat(k tea.KeyPressMsg) (Model, tea.Cmd) {
	switch {
	case key.Matches(k, p.KM.Up):
		p.chatIx = max(0, p.chatIx-1)
	case key.Matches(k, p.KM.Down):
		p.chatIx = min(len(p.chats)-1, p.chatIx+1)
	case key.Matches(k, p.KM.Open):
		p.mode = pickSession
		return p, uikit.Emit(OpenChatMsg{Session: p.chatFor, Chat: p.chats[p.chatIx].Resource})
	case key.Matches(k, p.KM.ClearFilter):
		p.mode = pickSession
	}
	return p, nil
}
