package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/render"
	"github.com/ahptui/ahptui/tui/uikit"
)

// statusInfo is everything the status line shows.
type statusInfo struct {
	conn     ahpclient.ConnState
	now      time.Time // for the reconnect countdown
	host     string
	title    string
	model    string
	usage    string
	pending  int
	mode     string // the session's mode (config), "" if none
	running  int    // background work (shells, subagents) running
	notice   string
	noticeEr bool
	stalled  time.Duration // an overdue host's silence while connected (stall.go)
}

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
	return uikit.OneLine(render.Sanitize(errText(err)))
}

// renderStatus draws the one-line status bar at width. The connection
// state and the pending count always stay visible: a long connection error
// is cut first, then the rest of the line.
func renderStatus(st *uikit.Styles, s statusInfo, width int) string {
	sep := st.Status.Sep.Render(" │ ")
	var pending string
	if s.pending > 0 {
		pending = sep + st.Status.Pending.Render(fmt.Sprintf("⚠ %d waiting for you (ctrl+p)", s.pending))
		if lipgloss.Width(pending) > width/2 {
			pending = sep + st.Status.Pending.Render(fmt.Sprintf("⚠ %d (ctrl+p)", s.pending))
		}
	}
	conn := connLabel(st, s.conn, s.now)
	if s.conn.Phase == ahpclient.Connected && s.stalled > 0 {
		conn = stalledLabel(st, s.stalled)
	}
	ell := st.Status.Bar.Render("…")
	if room := width - lipgloss.Width(pending); lipgloss.Width(conn) > room {
		conn = ansi.Truncate(conn, max(1, room), ell)
	}
	var rest []string
	if s.notice != "" {
		sty := st.Status.Notice
		if s.noticeEr {
			sty = st.Status.Failed
		}
		rest = append(rest, sty.Render(render.SanitizeLine(s.notice, width)))
	}
	if s.title != "" {
		rest = append(rest, st.Status.Title.Render(render.SanitizeLine(s.title, width)))
	}
	if s.model != "" {
		rest = append(rest, st.Status.Model.Render(render.SanitizeLine(s.model, width)))
	}
	if s.mode != "" {
		rest = append(rest, st.Status.Model.Render(uikit.OneLine(render.Sanitize(s.mode))+" mode"))
	}
	if s.running > 0 {
		rest = append(rest, st.Status.Pending.Render(fmt.Sprintf("⚙ %d running", s.running)))
	}
	if s.usage != "" {
		rest = append(rest, st.Status.Usage.Render(s.usage))
	}
	if s.host != "" {
		rest = append(rest, st.Status.Host.Render(s.host))
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

// formatTokens renders a token count compactly (950, 12.3k, 1.2M).
func formatTokens(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.0fk", float64(n)/1e3)
	case n >= 1_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
