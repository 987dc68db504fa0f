package tui

import (
	"cmp"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// The hosts' group headers (their states, with countdowns) and switching
// the attached host (model_hosts.go has the connections).

// syncHostTick keeps the countdown tick running while a host is not
// connected.
func (m *Model) syncHostTick() tea.Cmd {
	if m.hostTicking {
		return nil
	}
	for _, h := range m.hosts {
		if (h.b == nil && h.Connect != nil) || (h.b != nil && h.conn.Phase != ahpclient.Connected) {
			m.hostTicking = true
			return m.c.Tick(hostTickInterval, func(time.Time) tea.Msg { return hostTickMsg{} })
		}
	}
	return nil
}

// syncHosts hands the group headers to the picker.
func (m *Model) syncHosts() {
	if len(m.hosts) == 0 {
		return
	}
	hs := make([]picker.HostHeader, 0, len(m.hosts))
	now := m.c.Now()
	for _, h := range m.hosts {
		conn := h.conn
		if h.b != nil && h.b == m.c.Backend {
			conn = m.conn
		}
		state, bad := hostState(h, conn, now)
		if h.b != nil && h.b == m.c.Backend {
			state += " · attached"
		}
		hs = append(hs, picker.HostHeader{Name: h.Name, Label: cmp.Or(h.Name, h.Label), State: state, Bad: bad})
	}
	m.picker.SetHosts(hs)
}

// hostState words a host's state for its group header (token-free).
func hostState(h *hostEntry, conn ahpclient.ConnState, now time.Time) (string, bool) {
	switch {
	case h.b == nil && h.dialing:
		if h.down != "" {
			return "down, retrying now: " + h.down, true
		}
		return "connecting…", false
	case h.b == nil && h.down != "" && h.retryAt.IsZero():
		return "down: " + h.down, true
	case h.b == nil && h.down != "":
		return "down, retrying in " + countdown(h.retryAt.Sub(now)) + ": " + h.down, true
	case h.b == nil:
		return "connecting…", false
	}
	switch conn.Phase {
	case ahpclient.Connected:
		return "connected", false
	case ahpclient.Reconnecting:
		s := "down, retrying now"
		if !conn.NextRetry.IsZero() && conn.NextRetry.After(now) {
			s = "down, retrying in " + countdown(conn.NextRetry.Sub(now))
		}
		if conn.Err != nil {
			s += ": " + connReason(conn.Err)
		}
		return s, true
	case ahpclient.Failed, ahpclient.Closed:
		s := "down"
		if conn.Err != nil {
			s += ": " + connReason(conn.Err)
		}
		return s, true
	}
	return "connecting…", false
}

// countdown words a wait in whole seconds (at least 1s).
func countdown(d time.Duration) string {
	return fmt.Sprintf("%ds", max(1, int((d+time.Second-1)/time.Second)))
}

// attach makes h the attached host: the chat (if any) is left, the status
// line, agents and terminals are h's, and its events drive the UI from now.
func (m *Model) attach(h *hostEntry) tea.Cmd {
	var cmds []tea.Cmd
	old := m.hostByBackend(m.c.Backend)
	if old != nil {
		old.conn = m.conn // its AHP state stays in its mirror
	}
	if m.chat != nil {
		m.c.Mirror.Drop(m.chat.Session)
		m.c.Mirror.Drop(m.chat.URI)
		cmds = append(cmds, app.Unsubscribe(m.c.Ctx, m.c.Backend, m.chat.URI, m.chat.Session))
		m.chat = nil
	}
	m.open, m.screen, m.overlays = nil, screenPicker, nil
	m.prompted = map[string]bool{}
	m.c.Backend = h.b
	m.c.Host = cmp.Or(h.Label, h.Name)
	m.c.Channels = app.NewChannels(m.c)
	m.c.Mirror = h.mirror
	rs, _ := m.c.Mirror.Root()
	m.conn, m.wasConnected = h.conn, false // onConnState: this host's own history
	m.picker.Here, m.picker.Loaded, m.picker.NoHost = h.Name, true, false
	m.picker.Status = ""
	m.setAgents(rs.Agents)
	m.picker.Reconnecting = m.conn.Phase == ahpclient.Reconnecting
	if old != nil && old.Connect != nil && (old.conn.Phase == ahpclient.Failed || old.conn.Phase == ahpclient.Closed) {
		// The host left had given up for good: watched now, it is
		// closed and dialled again like any watched host that failed.
		cmds = append(cmds, m.onWatchState(old, old.conn))
	}
	m.syncHosts()
	return tea.Batch(append(cmds, m.syncRetryTick())...)
}

// openOnHost opens a session of another configured host: that host is
// attached first (when it is connected).
func (m *Model) openOnHost(msg picker.OpenSessionMsg) tea.Cmd {
	h := m.host(msg.Host)
	switch {
	case h == nil:
		return m.setNotice("@"+msg.Host+" is not a configured host", true)
	case h.b == nil:
		st, _ := hostState(h, h.conn, m.c.Now())
		return m.setNotice("@"+h.Name+" is "+st, true)
	}
	cmd := m.attach(h)
	m.open = &opening{session: msg.Session}
	m.picker.Status = "opening on @" + h.Name + "…"
	return tea.Batch(cmd, app.Subscribe(m.c.Ctx, m.c.Backend, msg.Session, 0))
}
