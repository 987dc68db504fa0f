package tui

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/internal/redact"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/picker"
)

// connecting is the start-up state while Options.Connect runs: instead of
// a blank screen, the user sees where the app connects, for how long, and
// how to give up.
type connecting struct {
	active  bool
	since   time.Time
	url     string // masked
	connect func(context.Context) error
}

type (
	// connectDoneMsg reports Options.Connect.
	connectDoneMsg struct{ err error }
	// connectTickMsg updates the elapsed time on the connecting screen.
	connectTickMsg struct{}
)

// connectTick is how often the connecting screen's elapsed time updates.
const connectTick = time.Second

// startConnect runs Options.Connect as a command.
func startConnect(ctx context.Context, connect func(context.Context) error) tea.Cmd {
	return func() tea.Msg { return connectDoneMsg{err: connect(ctx)} }
}

// openAtStart opens Options.OpenSession.
func openAtStart(session string) tea.Cmd {
	return func() tea.Msg { return picker.OpenSessionMsg{Session: session} }
}

func tickConnect(c *app.App) tea.Cmd {
	return c.Tick(connectTick, func(time.Time) tea.Msg { return connectTickMsg{} })
}

// onConnect handles the connecting screen's messages.
func (m *Model) onConnect(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectTickMsg:
		if m.connecting.active {
			return tickConnect(m.c)
		}
		return nil
	case connectDoneMsg:
		m.connecting.active = false
		if msg.err != nil {
			// main reports the failure (ConnectionFailure) after the exit.
			m.conn = ahpclient.ConnState{Phase: ahpclient.Failed, Err: msg.err}
			m.quitting = true
			return tea.Quit
		}
		if m.conn.Phase == ahpclient.Connecting { // the client's own events may be newer
			m.conn = ahpclient.ConnState{Phase: ahpclient.Connected}
		}
		if s := m.openAtStart; s != "" { // Options.OpenSession waits for the connection
			return openAtStart(s)
		}
		return nil
	}
	return nil
}

// connectingView draws the connecting screen (h lines above the status).
func (m *Model) connectingView(w, h int) string {
	st := &m.c.Styles
	elapsed := m.c.Now().Sub(m.connecting.since).Truncate(time.Second)
	lines := []string{
		"",
		"  " + st.Picker.Title.Render("Connecting to "+m.connecting.url),
		"",
		"  " + st.Picker.Meta.Render(fmt.Sprintf("waiting for the host to answer… %s", fmtElapsed(elapsed))),
		"",
		"  " + st.Picker.Meta.Render(m.c.KM.Global.Quit.Help().Key+" quits"),
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, max(1, w), "…")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines[:max(0, h)], "\n")
}

// fmtElapsed is "7s" or "1m05s".
func fmtElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// maskURL hides secrets in a URL for the screen with the one masking rule
// (internal/redact: the user info's password, tkn/token and key-, secret-
// or password-like query parameters). It is shown sanitised, on one line.
func maskURL(s string) string {
	if _, err := url.Parse(s); err != nil {
		return "(invalid URL)"
	}
	return render.SanitizeLine(redact.String(s), 200)
}
