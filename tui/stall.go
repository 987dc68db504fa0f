package tui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// A host that stops answering (its process stopped) keeps the link up
// until the client's dead-link check gives up on it. Meanwhile the status
// line says "host not responding for Ns" as soon as a request or ping is
// overdue (ahpclient.Client.Unresponsive), polled once a second from a
// tea.Cmd while connected.

// stallInterval is how often the attached host's responsiveness is read.
const stallInterval = time.Second

// unresponsive is the optional part of a Backend that reports an overdue
// host (*ahpclient.Client has it).
type unresponsive interface {
	Unresponsive() time.Duration
}

// stallTickMsg carries one reading of the host's silence (0: answering).
type stallTickMsg struct {
	d time.Duration
	b app.Backend
}

// stallTick reads b's responsiveness after stallInterval.
func stallTick(c *app.App, b app.Backend) tea.Cmd {
	u, ok := b.(unresponsive)
	if !ok {
		return nil
	}
	return c.Tick(stallInterval, func(time.Time) tea.Msg { return stallTickMsg{d: u.Unresponsive(), b: b} })
}

// syncStallTick starts the reading chain while connected.
func (m *Model) syncStallTick() tea.Cmd {
	if m.conn.Phase != ahpclient.Connected || m.stallTicking || m.c.Backend == nil {
		return nil
	}
	cmd := stallTick(m.c, m.c.Backend)
	m.stallTicking = cmd != nil
	return cmd
}

// onStallTick records a reading and keeps the chain going while connected.
func (m *Model) onStallTick(msg stallTickMsg) tea.Cmd {
	if msg.b != m.c.Backend {
		return nil
	}
	m.stallTicking = false
	if m.conn.Phase != ahpclient.Connected {
		m.stalled = 0
		return nil
	}
	m.stalled = msg.d
	return m.syncStallTick()
}

// stalledLabel is the status line's connection label while the host does
// not answer.
func stalledLabel(st *uikit.Styles, d time.Duration) string {
	return st.Status.Reconnecting.Render(fmt.Sprintf("◌ host not responding for %ds", int(d.Round(time.Second)/time.Second)))
}
