package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/app"
	"github.com/ahptui/ahptui/tui/uikit"
)

// connLabel renders the connection state: Connected, Reconnecting n (with
// the countdown to the next attempt at now), Failed.
func connLabel(st *uikit.Styles, c ahpclient.ConnState, now time.Time) string {
	switch c.Phase {
	case ahpclient.Connected:
		return st.Status.Connected.Render("● Connected")
	case ahpclient.Reconnecting:
		s := fmt.Sprintf("◌ Reconnecting %d", c.Attempt)
		if cd := retryCountdown(c, now); cd != "" {
			s += " · " + cd
		}
		if c.Err != nil {
			s += ": " + connReason(c.Err)
		}
		return st.Status.Reconnecting.Render(s)
	case ahpclient.Failed:
		s := "✗ Failed"
		if c.Err != nil {
			s += ": " + connReason(c.Err)
		}
		return st.Status.Failed.Render(s)
	case ahpclient.Closed:
		return st.Status.Failed.Render("✗ Closed")
	}
	return st.Status.Reconnecting.Render("◌ Connecting")
}

// connReason says why the connection is down, in words for people (the
// client logs the full error).
func connReason(err error) string {
	return uikit.OneLine(render.Sanitize(app.ErrText(err)))
}

// renderStatus draws the one-line status bar at width. The connection
// state and the pending count always stay visible: a long connection error
// is cut first, then the rest of the line.
func renderStatus(st *uikit.Styles, s app.StatusInfo, width int) string {
	sep := st.Status.Sep.Render(" │ ")
	var pending string
	if s.Pending > 0 {
		pending = sep + st.Status.Pending.Render(fmt.Sprintf("⚠ %d waiting for you (ctrl+p)", s.Pending))
		if lipgloss.Width(pending) > width/2 {
			pending = sep + st.Status.Pending.Render(fmt.Sprintf("⚠ %d (ctrl+p)", s.Pending))
		}
	}
	conn := connLabel(st, s.Conn, s.Now)
	if s.Conn.Phase == ahpclient.Connected && s.Stalled > 0 {
		conn = stalledLabel(st, s.Stalled)
	}
	ell := st.Status.Bar.Render("…")
	if room := width - lipgloss.Width(pending); lipgloss.Width(conn) > room {
		conn = ansi.Truncate(conn, max(1, room), ell)
	}
	var rest []string
	if s.Notice != "" {
		sty := st.Status.Notice
		if s.NoticeErr {
			sty = st.Status.Failed
		}
		rest = append(rest, sty.Render(render.SanitizeLine(s.Notice, width)))
	}
	if s.Title != "" {
		rest = append(rest, st.Status.Title.Render(render.SanitizeLine(s.Title, width)))
	}
	if s.Model != "" {
		rest = append(rest, st.Status.Model.Render(render.SanitizeLine(s.Model, width)))
	}
	if s.Mode != "" {
		rest = append(rest, st.Status.Model.Render(modeLabel(uikit.OneLine(render.Sanitize(s.Mode)))))
	}
	if s.Running > 0 {
		rest = append(rest, st.Status.Pending.Render(fmt.Sprintf("⚙ %d running", s.Running)))
	}
	if s.Usage != "" {
		rest = append(rest, st.Status.Usage.Render(s.Usage))
	}
	if s.Host != "" {
		rest = append(rest, st.Status.Host.Render(s.Host))
	}
	line := conn + pending
	if len(rest) > 0 {
		line += sep + strings.Join(rest, sep)
	}
	line = ansi.Truncate(line, max(1, width), ell)
	if w := lipgloss.Width(line); w < width {
		line += st.Status.Bar.Render(strings.Repeat(" ", width-w))
	}
	return line
}

// modeLabel names a session mode: "Plan mode" for "Plan", as it is for a
// mode named "Plan Mode" (Claude Code's), never "Plan Mode mode".
func modeLabel(mode string) string {
	if strings.HasSuffix(strings.ToLower(mode), "mode") {
		return mode
	}
	return mode + " mode"
}
