package tui

import (
	"context"
	"fmt"
	"io"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/tui/app"
)

// Many hosts: every configured host has its own connection (its own
// client and event pump), so one that is down or slow never delays the
// others; results arrive as messages. The attached host is the one whose
// client is m.c.backend: its events drive the chat as before. The others
// are watched: their session lists, summaries and connection states feed
// the picker (grouped by host) and the notifications. Choosing a session
// of another host makes that host the attached one; the one left keeps
// being watched over the same connection.

// HostOption is one configured host (Options.Hosts).
type HostOption struct {
	// Name is the host's name in the config file.
	Name string
	// Label is shown in the group header and the status line; it must be
	// token-free.
	Label string
	// Connect dials the host and returns its started backend (an
	// *ahpclient.Client in production). It runs as a command; its error
	// must be token-free.
	Connect func(ctx context.Context) (app.Backend, error)
}

// hostEntry is one host's connection as the model knows it.
type hostEntry struct {
	HostOption
	b        app.Backend         // nil until connected
	conn     ahpclient.ConnState // the client's last reported state
	down     string              // why the last connect failed ("" = it did not)
	retryAt  time.Time           // the next connect attempt (while down)
	attempts int                 // failed connects in a row
	dialing  bool                // a Connect is under way
	mirror   *ahpstate.Mirror    // the host's AHP state (every channel subscribed on it)
}

type (
	// hostConnectedMsg reports one HostOption.Connect.
	hostConnectedMsg struct {
		name string
		b    app.Backend
		err  error
	}
	// hostRetryMsg is due when a down host is dialled again; attempt
	// identifies the schedule (a stale one is ignored).
	hostRetryMsg struct {
		name    string
		attempt int
	}
	// hostTickMsg redraws the hosts' countdowns while one is not connected.
	hostTickMsg struct{}
	// backendClosedMsg reports that a given-up backend was closed.
	backendClosedMsg struct{}
)

// hostTickInterval is how often the group headers' countdowns redraw.
const hostTickInterval = time.Second

// hostBackoff is the wait before connect attempt n+1 (1s, 2s, 4s … 30s).
func hostBackoff(n int) time.Duration {
	d := time.Second << min(max(n-1, 0), 5)
	return min(d, 30*time.Second)
}

// newHosts builds the host list of o: the attached host (o.HostName, or
// one attached by URL, listed first) takes o.Backend.
func newHosts(o Options) []*hostEntry {
	if len(o.Hosts) == 0 {
		return nil
	}
	var hs []*hostEntry
	attached := o.Backend == nil
	for _, h := range o.Hosts {
		e := &hostEntry{HostOption: h, conn: ahpclient.ConnState{Phase: ahpclient.Connecting}, mirror: newMirror()}
		if o.Backend != nil && h.Name == o.HostName {
			e.b, attached = o.Backend, true
		}
		hs = append(hs, e)
	}
	if !attached { // attached by URL: its own group, first
		hs = append([]*hostEntry{{HostOption: HostOption{Label: o.Host}, b: o.Backend, mirror: newMirror()}}, hs...)
	}
	return hs
}

// startHosts marks every host without a backend as dialling (Init dials
// them) and draws the group headers; New calls it.
func (m *Model) startHosts() {
	for _, h := range m.hosts {
		if h.b == nil && h.Connect != nil {
			h.dialing = true
			m.hostTicking = true // Init starts the tick
		}
	}
	m.picker.NoHost = m.c.Backend == nil
	m.syncHosts()
}

// hostsInit dials every host startHosts marked (Init has a value
// receiver: it changes nothing in the model).
func (m Model) hostsInit() tea.Cmd {
	var cmds []tea.Cmd
	for _, h := range m.hosts {
		if h.dialing {
			cmds = append(cmds, connectHost(m.c.Ctx, h.Name, h.Connect))
		}
	}
	if len(cmds) > 0 {
		cmds = append(cmds, m.c.Tick(hostTickInterval, func(time.Time) tea.Msg { return hostTickMsg{} }))
	}
	return tea.Batch(cmds...)
}

// connectHost runs one host's Connect.
func connectHost(ctx context.Context, name string, connect func(context.Context) (app.Backend, error)) tea.Cmd {
	return func() tea.Msg {
		b, err := connect(ctx)
		return hostConnectedMsg{name: name, b: b, err: err}
	}
}

// closeBackend closes a backend the model gave up on.
func closeBackend(b app.Backend) tea.Cmd {
	c, ok := b.(io.Closer)
	if !ok {
		return nil
	}
	return func() tea.Msg { _ = c.Close(); return backendClosedMsg{} }
}

func (m *Model) host(name string) *hostEntry {
	for _, h := range m.hosts {
		if h.Name == name && (name != "" || h.Connect == nil) {
			return h
		}
	}
	return nil
}

func (m *Model) hostByBackend(b app.Backend) *hostEntry {
	if b == nil {
		return nil
	}
	for _, h := range m.hosts {
		if h.b == b {
			return h
		}
	}
	return nil
}

// here is the attached host's name ("" when attached by URL or to none).
func (m *Model) here() string { return m.picker.Here }

// onHostMsg handles the hosts' own messages.
func (m *Model) onHostMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case hostConnectedMsg:
		return m.onHostConnected(msg)
	case hostRetryMsg:
		h := m.host(msg.name)
		if h == nil || h.b != nil || h.dialing || h.attempts != msg.attempt || h.Connect == nil {
			return nil
		}
		h.dialing = true
		m.syncHosts()
		return connectHost(m.c.Ctx, h.Name, h.Connect)
	case hostTickMsg:
		m.hostTicking = false
		m.syncHosts()
		return m.syncHostTick()
	case backendClosedMsg:
		return nil
	}
	return nil
}

func (m *Model) onHostConnected(msg hostConnectedMsg) tea.Cmd {
	h := m.host(msg.name)
	if h == nil {
		return closeBackend(msg.b)
	}
	h.dialing = false
	if msg.err != nil {
		h.attempts++
		h.down = connReason(msg.err)
		wait := hostBackoff(h.attempts)
		h.retryAt = m.c.Now().Add(wait)
		m.c.Log.Info("host down", "host", h.Name, "err", msg.err, "retry", wait)
		m.syncHosts()
		if h.Connect == nil { // attached by URL: nothing to dial it again with
			h.retryAt = time.Time{}
			return nil
		}
		n := h.attempts
		return tea.Batch(m.c.Tick(wait, func(time.Time) tea.Msg { return hostRetryMsg{name: h.Name, attempt: n} }), m.syncHostTick())
	}
	h.b, h.down, h.attempts = msg.b, "", 0
	h.mirror = newMirror() // a new connection: its snapshots fill it
	h.conn = ahpclient.ConnState{Phase: ahpclient.Connected}
	m.c.Log.Info("host connected", "host", h.Name)
	cmds := []tea.Cmd{waitForEvent(m.c.Ctx, h.b)}
	if m.c.Backend == nil {
		// Opened without a host: the first one up is attached (new
		// sessions go there); the list stays the whole inbox.
		cmds = append(cmds, m.attach(h))
	}
	m.syncHosts()
	return tea.Batch(cmds...)
}

// onWatchEvent applies one event of a host that is not attached.
func (m *Model) onWatchEvent(b app.Backend, msg connEventMsg) tea.Cmd {
	cmd, pump := m.applyWatchEvent(b, msg)
	if !pump {
		return cmd
	}
	return tea.Batch(cmd, waitForEvent(m.c.Ctx, b))
}

// applyWatchEvent is onWatchEvent without re-arming the pump; pump says
// whether the backend is still watched (its pump goes on).
func (m *Model) applyWatchEvent(b app.Backend, msg connEventMsg) (tea.Cmd, bool) {
	ev := msg.ev
	h := m.hostByBackend(b)
	if h == nil {
		if e, ok := ev.(ahpclient.EnvelopeEvent); ok {
			e.Ack()
		}
		return nil, false // a backend given up on: its pump ends here
	}
	var cmd tea.Cmd
	switch ev := ev.(type) {
	case ahpclient.ConnStateEvent:
		cmd = m.onWatchState(h, ev.State)
	case ahpclient.SessionsEvent:
		if ev.Err == nil {
			cmd = m.setHostSessions(h.Name, ev.Result.Items)
		}
	case ahpclient.NotificationEvent:
		cmd = m.onRootNotification(h.Name, ev)
	case ahpclient.SnapshotEvent:
		// A bad root snapshot leaves the last good one.
		if d := msg.decoded; d != nil && d.err == nil && d.kind == h.mirror.KindOf(ev.Snapshot.Resource) {
			_, _ = h.mirror.LoadState(ev.Snapshot.Resource, d.state) // decoded by the pump
		} else {
			_, _ = h.mirror.Load(ev.Snapshot)
		}
	case ahpclient.EnvelopeEvent:
		h.mirror.Apply(ev.Envelope)
		ev.Ack()
	}
	return cmd, h.b == b // given up while handling: no more pumping
}

// onWatchState records a watched host's connection state; a client that
// gave up is closed and the host dialled again after a backoff.
func (m *Model) onWatchState(h *hostEntry, s ahpclient.ConnState) tea.Cmd {
	h.conn = s
	defer m.syncHosts()
	if s.Phase != ahpclient.Failed && s.Phase != ahpclient.Closed {
		return m.syncHostTick()
	}
	old := h.b
	h.b = nil
	reason := "closed"
	if s.Err != nil {
		reason = connReason(s.Err)
	}
	return tea.Batch(closeBackend(old), m.onHostConnected(hostConnectedMsg{name: h.Name, err: fmt.Errorf("%s", reason)}))
}

// onWatchStopped handles the end of a watched host's event stream.
func (m *Model) onWatchStopped(b app.Backend, err error) tea.Cmd {
	h := m.hostByBackend(b)
	if h == nil {
		return nil
	}
	if err == nil {
		err = fmt.Errorf("connection closed")
	}
	return m.onWatchState(h, ahpclient.ConnState{Phase: ahpclient.Failed, Err: err})
}

// newMirror returns the AHP state the UI keeps of one host connection:
// every channel it subscribes (the root, the opening or open session, the
// open chat, the terminals and changesets on screen). The screens read it
// (App.Mirror); nothing else holds AHP state.
func newMirror() *ahpstate.Mirror {
	return ahpstate.NewMirror(ahpstate.Reducer{})
}
