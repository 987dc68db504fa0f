package tui

import (
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/render"
)

// InboxHost is one configured host's state and sessions, as the caller
// learns them (each host on its own, so one that is down does not hold up
// the others).
type InboxHost struct {
	// Name is the host's name in the config file.
	Name string
	// State is "connecting…", "connected" or why the host cannot be reached
	// (token-free).
	State string
	// Sessions are the host's sessions.
	Sessions []ahpwire.SessionSummary
}

// InboxOptions configure the inbox.
type InboxOptions struct {
	// Hosts are the configured host names, in display order.
	Hosts []string
	// Updates delivers host states as they arrive; it is closed when every
	// host has answered (or given up).
	Updates <-chan InboxHost
	// Dark picks the colour scheme.
	Dark bool
	// Notify turns on notifications for sessions that start needing the
	// user, finish or fail while the inbox shows (nil = off).
	Notify *NotifyOptions
}

// InboxChoice is what the user picked: a host and one of its sessions
// ("" when they quit).
type InboxChoice struct {
	Host, Session string
}

// inboxUpdateMsg carries one host's state; inboxDoneMsg ends the updates.
type (
	inboxUpdateMsg struct{ h InboxHost }
	inboxDoneMsg   struct{}
)

// inboxRow is one selectable session.
type inboxRow struct {
	host string
	s    ahpwire.SessionSummary
}

// Inbox is the session picker over every configured host: sessions grouped
// by host, each host with its connection state; sessions that need the user
// (a question, an approval, an error) sort first, unread ones are marked.
type Inbox struct {
	hosts   []InboxHost
	updates <-chan InboxHost
	styles  Styles
	sel     int
	width   int
	height  int
	choice  InboxChoice
	notify  *notifier
}

// NewInbox builds the inbox; every host starts as "connecting…".
func NewInbox(o InboxOptions) Inbox {
	m := Inbox{updates: o.Updates, styles: newStyles(render.StylesFor(o.Dark)), width: 80, height: 24, notify: newNotifier(o.Notify)}
	for _, n := range o.Hosts {
		m.hosts = append(m.hosts, InboxHost{Name: n, State: "connecting…"})
	}
	return m
}

// Choice returns the user's pick (zero when they quit).
func (m Inbox) Choice() InboxChoice { return m.choice }

// Init waits for the first host update.
func (m Inbox) Init() tea.Cmd { return m.wait() }

func (m Inbox) wait() tea.Cmd {
	ch := m.updates
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		h, ok := <-ch
		if !ok {
			return inboxDoneMsg{}
		}
		return inboxUpdateMsg{h: h}
	}
}

// Update handles host updates and keys (↑/↓ or k/j move, enter opens,
// esc/q/ctrl+c quit).
func (m Inbox) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case inboxUpdateMsg:
		cur, _ := m.selected()
		var cmds []tea.Cmd
		for i := range m.hosts {
			if m.hosts[i].Name == msg.h.Name {
				h := msg.h
				sort.SliceStable(h.Sessions, func(a, b int) bool { return h.Sessions[a].AttentionRank() < h.Sessions[b].AttentionRank() })
				cmds = append(cmds, m.notifyChanges(m.hosts[i], h)...)
				m.hosts[i] = h
			}
		}
		m.reselect(cur)
		return m, tea.Batch(append(cmds, m.wait())...)
	case tea.KeyPressMsg:
		switch msg.String() {
		case "up", "k":
			m.sel = max(0, m.sel-1)
		case "down", "j":
			m.sel = min(max(0, len(m.rows())-1), m.sel+1)
		case "enter":
			if r, ok := m.selected(); ok {
				m.choice = InboxChoice{Host: r.host, Session: r.s.Resource}
				return m, tea.Quit
			}
		case "esc", "q", "ctrl+c":
			return m, tea.Quit
		}
	}
	return m, nil
}

// notifyChanges notifies for the sessions whose status moved between two
// states of a host (the user is in none of them while the inbox shows).
func (m Inbox) notifyChanges(before, after InboxHost) []tea.Cmd {
	if !m.notify.enabled() {
		return nil
	}
	prev := make(map[string]ahpwire.SessionStatus, len(before.Sessions))
	for _, s := range before.Sessions {
		prev[s.Resource] = s.Status
	}
	var cmds []tea.Cmd
	for _, s := range after.Sessions {
		if p, ok := prev[s.Resource]; ok {
			if c := m.notify.onStatus(after.Name+" "+s.Resource, s.Title, p, s.Status, false); c != nil {
				cmds = append(cmds, c)
			}
		}
	}
	return cmds
}

// rows lists the selectable sessions in display order.
func (m Inbox) rows() []inboxRow {
	var out []inboxRow
	for _, h := range m.hosts {
		for _, s := range h.Sessions {
			out = append(out, inboxRow{host: h.Name, s: s})
		}
	}
	return out
}

func (m Inbox) selected() (inboxRow, bool) {
	rows := m.rows()
	if m.sel < 0 || m.sel >= len(rows) {
		return inboxRow{}, false
	}
	return rows[m.sel], true
}

// reselect keeps the selection on the same session when rows move.
func (m *Inbox) reselect(cur inboxRow) {
	for i, r := range m.rows() {
		if r.host == cur.host && r.s.Resource == cur.s.Resource {
			m.sel = i
			return
		}
	}
	m.sel = min(m.sel, max(0, len(m.rows())-1))
}

// View draws hosts and their sessions, clipped to the terminal.
func (m Inbox) View() tea.View {
	st := &m.styles
	lines := []string{st.Picker.Title.Render("Inbox") + st.Picker.Meta.Render("  every configured host"), ""}
	i, selLine := 0, 0
	for _, h := range m.hosts {
		state := st.Picker.Meta.Render(render.Sanitize(h.State))
		lines = append(lines, st.Picker.Item.Bold(true).Render("@"+h.Name)+"  "+state)
		for _, s := range h.Sessions {
			mark := "  "
			switch {
			case s.NeedsUser():
				mark = st.Picker.IconBusy.Render("! ")
			case !s.Status.Has(ahpwire.StatusIsRead):
				mark = st.Picker.Icon.Render("* ")
			}
			title := render.Sanitize(firstNonEmpty(s.Title, strings.TrimPrefix(s.Resource, "ahp-session:/")))
			line := fmt.Sprintf("  %s%s  %s", mark, title, st.Picker.Meta.Render(inboxStatus(s.Status)))
			if i == m.sel {
				line = st.Picker.Selected.Render("›") + line[1:]
				selLine = len(lines)
			}
			lines = append(lines, line)
			i++
		}
	}
	hint := st.Picker.Meta.Render("↑/↓ move · enter open · esc quit")
	if body := max(1, m.height-1); len(lines) > body {
		// Scroll so that the selected session stays visible.
		off := min(max(0, selLine-body/2), len(lines)-body)
		lines = lines[off : off+body]
	}
	lines = append(lines, hint)
	if len(lines) > m.height {
		lines = lines[len(lines)-max(1, m.height):]
	}
	for k, l := range lines {
		lines[k] = ansi.Truncate(strings.ReplaceAll(l, "\n", " "), m.width, "…")
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.WindowTitle = "ahptui — inbox"
	return v
}

// inboxStatus names a status for the list.
func inboxStatus(st ahpwire.SessionStatus) string {
	switch st.Activity() {
	case ahpwire.StatusInputNeeded:
		return "needs you"
	case ahpwire.StatusError:
		return "error"
	case ahpwire.StatusInProgress:
		return "running"
	}
	return "idle"
}
